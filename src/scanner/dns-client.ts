import { createSocket } from "node:dgram";
import { isIPv6 } from "node:net";
import { Packet } from "dns2";
import type { ResolverAddress } from "./resolver-address.ts";

export type RecordType = "A" | "AAAA" | "TXT" | "MX";

export interface DnsAnswer {
  /** RCODE of the answer (0 = NOERROR, 3 = NXDOMAIN). */
  rcode: number;
  /** The AD (authenticated data) flag: the resolver validated the answer with DNSSEC. */
  ad: boolean;
  /** Addresses for A/AAAA, joined strings for TXT, exchanges for MX. */
  records: string[];
}

/**
 * One DNS question over UDP to `resolver`, with RD and AD set in the query (RFC 6840 §5.7: a validating
 * resolver then reports AD). Rejects on timeout.
 */
export function queryDns(
  resolver: ResolverAddress,
  name: string,
  type: RecordType,
  timeoutMs = 3000,
): Promise<DnsAnswer> {
  const query = new Packet();
  query.header.id = Math.floor(Math.random() * 0x10000);
  query.header.rd = 1;
  // dns2 parses and writes the AD bit but does not type it.
  (query.header as unknown as { ad: number }).ad = 1;
  query.questions.push({
    name,
    type: Packet.TYPE[type],
    class: Packet.CLASS.IN,
  } as (typeof query.questions)[number]);
  const socket = createSocket(isIPv6(resolver.host) ? "udp6" : "udp4");
  return new Promise<DnsAnswer>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`DNS query ${type} ${name} to ${resolver.host}:${resolver.port} timed out`));
    }, timeoutMs);
    socket.on("error", (e) => {
      clearTimeout(timer);
      socket.close();
      reject(e);
    });
    socket.on("message", (message) => {
      let answer: Packet;
      try {
        answer = Packet.parse(message);
      } catch {
        return;
      }
      if (answer.header.id !== query.header.id) return;
      clearTimeout(timer);
      socket.close();
      const wanted = Packet.TYPE[type];
      const records: string[] = [];
      for (const r of answer.answers as unknown as Record<string, unknown>[]) {
        if (r.type !== wanted) continue;
        if (type === "TXT") records.push(([] as unknown[]).concat(r.data).join(""));
        else if (type === "MX") records.push(String(r.exchange));
        else records.push(String(r.address));
      }
      resolve({
        rcode: answer.header.rcode,
        ad: (answer.header as unknown as { ad: number }).ad === 1,
        records,
      });
    });
    socket.send(query.toBuffer(), resolver.port, resolver.host);
  });
}
