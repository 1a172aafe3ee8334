import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

/**
 * Refuses webhook receivers that would make unirank reach into its own network (SSRF): loopback, private,
 * carrier-grade NAT, link-local (and so cloud metadata at 169.254.169.254 / fd00:ec2::254), multicast,
 * reserved and documentation ranges, for IPv4, IPv6 and IPv4 embedded in IPv6. The host is resolved and
 * every address it resolves to must be public.
 */

/** Resolves a host name to every address (injectable for tests). */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

const V4_BLOCKED: [string, number][] = [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

function v4ToInt(ip: string): number {
  return ip.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

function v4Blocked(ip: string): boolean {
  const n = v4ToInt(ip);
  return V4_BLOCKED.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    const start = v4ToInt(base);
    return n >= start && n < start + size;
  });
}

/** The 8 groups of an IPv6 address as numbers (handles `::` and a trailing dotted IPv4). */
function v6Groups(ip: string): number[] {
  let text = ip.toLowerCase().replace(/%.*$/, "");
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const n = v4ToInt(dotted[1]);
    text = text.replace(dotted[1], `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`);
  }
  const [head = "", tail] = text.split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : new Array(8 - h.length - t.length).fill("0");
  return [...h, ...fill, ...t].map((g) => Number.parseInt(g || "0", 16));
}

function v6Blocked(ip: string): boolean {
  const g = v6Groups(ip);
  if (g.length !== 8 || g.some((x) => Number.isNaN(x))) return true;
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, h7 = 0, h8 = 0] = g;
  const embedded = `${h7 >> 8}.${h7 & 255}.${h8 >> 8}.${h8 & 255}`;
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0) {
    if (f === 0xffff || (f === 0 && h7 !== 0)) return v4Blocked(embedded); // IPv4-mapped / -compatible
    return true; // :: and ::1
  }
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return v4Blocked(embedded); // NAT64
  if ((a & 0xfe00) === 0xfc00) return true; // unique local fc00::/7 (also fd00:ec2::254)
  if ((a & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((a & 0xffc0) === 0xfec0) return true; // site-local fec0::/10 (deprecated)
  if ((a & 0xff00) === 0xff00) return true; // multicast
  if (a === 0x2001 && b === 0x0db8) return true; // documentation
  if (a === 0x2002) return v4Blocked(`${b >> 8}.${b & 255}.${c >> 8}.${c & 255}`); // 6to4
  if (a === 0x0100 && b === 0 && c === 0 && d === 0) return true; // discard-only
  return false;
}

/** True for an address a webhook must not reach without `allowPrivate`. */
export function isPrivateAddress(address: string): boolean {
  const kind = isIP(address.replace(/^\[|\]$/g, ""));
  if (kind === 4) return v4Blocked(address);
  if (kind === 6) return v6Blocked(address.replace(/^\[|\]$/g, ""));
  return true;
}

export interface GuardOptions {
  /** Let receivers on loopback, private and link-local addresses through (`--allow-private-webhooks`). */
  allowPrivate?: boolean;
  resolve?: Resolver;
}

/** Why a receiver URL is refused, or null when it may be called. Resolves the host and checks every address. */
export async function refuseReceiverUrl(url: string, options: GuardOptions = {}): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `not a valid URL: ${url}`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return `only http and https receivers are allowed`;
  if (options.allowPrivate) return null;
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (options.resolve ?? systemResolver)(host);
    } catch (e) {
      throw new Error(`cannot resolve ${host}: ${(e as Error).message}`);
    }
    if (addresses.length === 0) throw new Error(`cannot resolve ${host}: no address`);
  }
  const blocked = addresses.find(isPrivateAddress);
  return blocked
    ? `refused: ${host} resolves to ${blocked}, a loopback, private, link-local or reserved address (allow with --allow-private-webhooks)`
    : null;
}
