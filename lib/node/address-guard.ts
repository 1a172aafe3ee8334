import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import {
  IPV4_NOT_UNICAST,
  IPV4_SPECIAL_PURPOSE,
  IPV6_GLOBAL_UNICAST,
  IPV6_SPECIAL_PURPOSE,
  type SpecialBlock,
} from "./special-purpose-registry.ts";

/**
 * Refuses addresses that would make unirank reach into its own network (SSRF) or anywhere but a public unicast
 * host: every block of the IANA special-purpose registries (loopback, private, shared, link-local and so cloud
 * metadata at 169.254.169.254 / fd00:ec2::254, documentation, benchmarking, AS112, NAT64 local use, Teredo, 6to4
 * …), IPv4 multicast and IPv6 outside global unicast, and IPv4 carried in IPv6 by what it carries. Webhook
 * receivers and scan targets are resolved and every address they resolve to must pass.
 */

/** Resolves a host name to every address (injectable for tests). */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];
interface Range {
  block: SpecialBlock;
  cidr: Cidr;
}

const ranges = (blocks: readonly SpecialBlock[]): Range[] =>
  blocks.map((block) => ({ block, cidr: ipaddr.parseCIDR(block.block) }));
const V4_RANGES = ranges([...IPV4_SPECIAL_PURPOSE, ...IPV4_NOT_UNICAST]);
const V6_RANGES = ranges(IPV6_SPECIAL_PURPOSE);
const V6_GLOBAL_UNICAST = ipaddr.parseCIDR(IPV6_GLOBAL_UNICAST);
/** IPv6 forms that carry an IPv4 address the connection goes to: that address is judged instead. */
const CARRY_IPV4 = ["::ffff:0:0/96", "64:ff9b::/96"].map((c) => ipaddr.parseCIDR(c));

const NOT_AN_ADDRESS: SpecialBlock = {
  block: "-",
  name: "not an IP address",
  rfc: "",
  globallyReachable: null,
};
const OUTSIDE_GLOBAL_UNICAST: SpecialBlock = {
  block: `outside ${IPV6_GLOBAL_UNICAST}`,
  name: "not IPv6 global unicast (reserved, multicast or site-local)",
  rfc: "RFC4291",
  globallyReachable: false,
};

/** The most specific of the ranges an address falls in. */
function mostSpecific(address: ipaddr.IPv4 | ipaddr.IPv6, list: Range[]): SpecialBlock | null {
  let found: Range | null = null;
  for (const range of list) {
    if (address.match(range.cidr) && (found === null || range.cidr[1] > found.cidr[1])) found = range;
  }
  return found?.block ?? null;
}

/**
 * Why an address is no place for unirank to connect to: the block of the IANA special-purpose registries (or
 * of the address-space registries: multicast, IPv6 outside 2000::/3) it falls in, or null for an ordinary public
 * unicast address. Every special-purpose block is refused, globally reachable or not (AS112 sinks, anycast
 * relays and documentation ranges hold no university site nor webhook receiver); IPv4-mapped addresses and the
 * NAT64 well-known prefix (64:ff9b::/96) are judged by the IPv4 address they carry. See
 * `special-purpose-registry.ts` for the data and its source.
 */
export function refusedBlock(address: string): SpecialBlock | null {
  const text = address.replace(/^\[|\]$/g, "");
  const kind = isIP(text);
  if (kind === 0) return NOT_AN_ADDRESS;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(text);
  } catch {
    return NOT_AN_ADDRESS;
  }
  if (parsed.kind() === "ipv4") return mostSpecific(parsed, V4_RANGES);
  const v6 = parsed as ipaddr.IPv6;
  if (CARRY_IPV4.some((c) => v6.match(c))) {
    const carried = ipaddr.fromByteArray(v6.toByteArray().slice(12)) as ipaddr.IPv4;
    return mostSpecific(carried, V4_RANGES);
  }
  if (!v6.match(V6_GLOBAL_UNICAST)) return mostSpecific(v6, V6_RANGES) ?? OUTSIDE_GLOBAL_UNICAST;
  return mostSpecific(v6, V6_RANGES);
}

/** True for an address unirank must not reach without `allowPrivate` (see `refusedBlock`). */
export function isPrivateAddress(address: string): boolean {
  return refusedBlock(address) !== null;
}

/** `127.0.0.1 (127.0.0.0/8, Loopback, RFC1122 …)`: an address and the block that refuses it, for messages. */
export function describeRefusal(address: string): string {
  const block = refusedBlock(address);
  if (block === null) return address;
  if (block === NOT_AN_ADDRESS) return `${address} (not an IP address)`;
  return `${address} (${block.block}, ${block.name}${block.rfc ? `, ${block.rfc}` : ""})`;
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
    ? `refused: ${host} resolves to ${describeRefusal(blocked)}, a loopback, private, link-local or reserved address (allow with --allow-private-webhooks)`
    : null;
}
