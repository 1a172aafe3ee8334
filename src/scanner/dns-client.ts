import { createSocket } from "node:dgram";
import { connect, isIPv6 } from "node:net";
import { Packet } from "dns2";
import type { ResolverAddress } from "./resolver-address.ts";

export type RecordType = "A" | "AAAA" | "TXT" | "MX" | "PTR";

export interface DnsAnswer {
  /** RCODE of the answer (0 = NOERROR, 3 = NXDOMAIN). */
  rcode: number;
  /** The AD (authenticated data) flag: the resolver validated the answer with DNSSEC. */
  ad: boolean;
  /** Addresses for A/AAAA, joined strings for TXT, exchanges for MX, names for PTR. */
  records: string[];
  /** The answer came over TCP after a truncated UDP one. */
  tcp: boolean;
}

/** The UDP payload size offered with EDNS0 (RFC 6891): the DNS Flag Day 2020 value, safe from fragmentation. */
export const EDNS_UDP_PAYLOAD = 1232;

function question(name: string, type: RecordType): Packet {
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
  // dns2 takes the options but does not type them.
  const edns = Packet.Resource.EDNS as unknown as (rdata: object[], opts: object) => unknown;
  query.additionals.push(
    edns([], { udpPayloadSize: EDNS_UDP_PAYLOAD }) as (typeof query.additionals)[number],
  );
  return query;
}

function answerOf(answer: Packet, type: RecordType, tcp: boolean): DnsAnswer {
  const wanted = Packet.TYPE[type];
  const records: string[] = [];
  for (const r of answer.answers as unknown as Record<string, unknown>[]) {
    if (r.type !== wanted) continue;
    if (type === "TXT") records.push(([] as unknown[]).concat(r.data).join(""));
    else if (type === "MX") records.push(String(r.exchange));
    else if (type === "PTR") records.push(String(r.domain));
    else records.push(String(r.address));
  }
  return {
    rcode: answer.header.rcode,
    ad: (answer.header as unknown as { ad: number }).ad === 1,
    records,
    tcp,
  };
}

/** One exchange over UDP; resolves to the parsed answer (which may be truncated). */
function overUdp(resolver: ResolverAddress, query: Packet, timeoutMs: number, what: string): Promise<Packet> {
  const socket = createSocket(isIPv6(resolver.host) ? "udp6" : "udp4");
  return new Promise<Packet>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`DNS query ${what} to ${resolver.host}:${resolver.port} timed out`));
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
      resolve(answer);
    });
    socket.send(query.toBuffer(), resolver.port, resolver.host);
  });
}

/** One exchange over TCP (RFC 7766): a two-byte length before each message. */
function overTcp(resolver: ResolverAddress, query: Packet, timeoutMs: number, what: string): Promise<Packet> {
  return new Promise<Packet>((resolve, reject) => {
    const socket = connect({ host: resolver.host, port: resolver.port });
    let received = Buffer.alloc(0);
    const done = (error: Error | null, answer?: Packet) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(answer as Packet);
    };
    const timer = setTimeout(
      () => done(new Error(`DNS query ${what} over TCP to ${resolver.host}:${resolver.port} timed out`)),
      timeoutMs,
    );
    socket.on("error", (e) => done(e));
    socket.on("connect", () => {
      const message = query.toBuffer();
      const length = Buffer.alloc(2);
      length.writeUInt16BE(message.length);
      socket.write(Buffer.concat([length, message]));
    });
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
      try {
        const answer = Packet.parse(received.subarray(2, 2 + received.readUInt16BE(0)));
        if (answer.header.id !== query.header.id)
          done(new Error(`DNS query ${what}: the TCP answer has another id`));
        else done(null, answer);
      } catch (e) {
        done(e as Error);
      }
    });
    socket.on("end", () => done(new Error(`DNS query ${what}: the TCP connection closed before the answer`)));
  });
}

/**
 * One DNS question to `resolver`, with RD and AD set (RFC 6840 §5.7: a validating resolver then reports AD) and
 * EDNS0 offering a 1232-byte UDP payload (RFC 6891); a truncated answer is asked again over TCP (RFC 7766), so a
 * large TXT set is read whole. Rejects on timeout.
 */
export async function queryDns(
  resolver: ResolverAddress,
  name: string,
  type: RecordType,
  timeoutMs = 3000,
): Promise<DnsAnswer> {
  const what = `${type} ${name}`;
  const udp = await overUdp(resolver, question(name, type), timeoutMs, what);
  if (!(udp.header as unknown as { tc: number }).tc) return answerOf(udp, type, false);
  return answerOf(await overTcp(resolver, question(name, type), timeoutMs, what), type, true);
}
