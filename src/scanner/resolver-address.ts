import { getServers } from "node:dns";
import { isIPv6 } from "node:net";

/** A resolver to ask: host and port. */
export interface ResolverAddress {
  host: string;
  port: number;
}

/** Parses `HOST:PORT`, `HOST` or `[IPv6]:PORT` (port 53 by default). */
export function parseResolver(text: string): ResolverAddress {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed?.[1]) return { host: bracketed[1], port: Number(bracketed[2] ?? 53) };
  if (isIPv6(text)) return { host: text, port: 53 };
  const [host = "", port] = text.split(":");
  const n = Number(port ?? 53);
  if (!host || !Number.isInteger(n) || n < 1 || n > 65535)
    throw new Error(`not a resolver HOST:PORT: ${text}`);
  return { host, port: n };
}

/** The system's first resolver (from /etc/resolv.conf), for when none is configured. */
export function systemResolverAddress(): ResolverAddress {
  const first = getServers()[0] ?? "127.0.0.1";
  return parseResolver(isIPv6(first) ? `[${first}]` : first);
}
