/**
 * Client addresses: parsing, CIDR matching, the X-Forwarded-For walk, and the identity a limit counts
 * (an IPv4 address, or the /64 of an IPv6 address; `::ffff:1.2.3.4` is the IPv4 address 1.2.3.4).
 */

export type ParsedIp = { version: 4; bytes: Uint8Array } | { version: 6; bytes: Uint8Array };

/** Four parts of one to three digits, each at most 255, read character by character (every request reads a few). */
function parseIpv4(text: string): Uint8Array | null {
  const out = new Uint8Array(4);
  let part = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      if (++digits > 3) return null;
      value = value * 10 + (c - 0x30);
    } else if (c === 0x2e && digits > 0 && value <= 255 && part < 3) {
      out[part++] = value;
      value = 0;
      digits = 0;
    } else return null;
  }
  if (part !== 3 || digits === 0 || value > 255) return null;
  out[3] = value;
  return out;
}

function parseIpv6(text: string): Uint8Array | null {
  // Hex groups of 1–4 digits, at most one `::`, an IPv4 address only at the end.
  if (!/^[0-9a-f:.]+$/i.test(text) || text.split("::").length > 2 || /:::/.test(text)) return null;
  let head = text;
  const tailBytes: number[] = [];
  // Embedded IPv4 in the last 32 bits (e.g. ::ffff:1.2.3.4).
  const lastColon = head.lastIndexOf(":");
  const last = head.slice(lastColon + 1);
  if (last.includes(".")) {
    const v4 = parseIpv4(last);
    if (!v4) return null;
    tailBytes.push(...v4);
    head = `${head.slice(0, lastColon + 1)}0:0`;
  }
  const [left = "", right] = head.split("::") as [string, string | undefined];
  const leftGroups = left === "" ? [] : left.split(":");
  const rightGroups = right === undefined || right === "" ? [] : right.split(":");
  const fill = 8 - leftGroups.length - rightGroups.length;
  if (right === undefined ? fill !== 0 : fill < 1) return null;
  const groups = [...leftGroups, ...Array<string>(right === undefined ? 0 : fill).fill("0"), ...rightGroups];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    const n = Number.parseInt(g, 16);
    out[i * 2] = n >> 8;
    out[i * 2 + 1] = n & 0xff;
  });
  if (tailBytes.length === 4) out.set(tailBytes, 12);
  return out;
}

/** Parses an address (brackets and an IPv6 zone are tolerated); IPv4-mapped IPv6 comes back as IPv4. */
export function parseIp(text: string): ParsedIp | null {
  let t = text.trim();
  if (t.startsWith("[") && t.endsWith("]")) t = t.slice(1, -1);
  const zone = t.indexOf("%");
  if (zone >= 0) t = t.slice(0, zone);
  const v4 = parseIpv4(t);
  if (v4) return { version: 4, bytes: v4 };
  const v6 = parseIpv6(t);
  if (!v6) return null;
  const mapped = v6.slice(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff;
  if (mapped) return { version: 4, bytes: v6.slice(12) };
  return { version: 6, bytes: v6 };
}

function formatIp(ip: ParsedIp): string {
  if (ip.version === 4) return `${ip.bytes[0]}.${ip.bytes[1]}.${ip.bytes[2]}.${ip.bytes[3]}`;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2)
    groups.push((((ip.bytes[i] ?? 0) << 8) | (ip.bytes[i + 1] ?? 0)).toString(16));
  // Compress the longest run of zero groups (RFC 5952).
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== "0") {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === "0") j++;
    if (j - i > bestLen && j - i > 1) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (best < 0) return groups.join(":");
  return `${groups.slice(0, best).join(":")}::${groups.slice(best + bestLen).join(":")}`;
}

/** The canonical text of an address (`::ffff:1.2.3.4` → `1.2.3.4`), or null when it is not one. */
export function normalizeIp(text: string): string | null {
  const ip = parseIp(text);
  return ip ? formatIp(ip) : null;
}

/** What a per-IP limit counts: the IPv4 address, or the IPv6 /64 (`2001:db8:1:2::/64`). */
export function clientGroup(address: string): string {
  const ip = parseIp(address);
  if (!ip) return "unknown";
  if (ip.version === 4) return formatIp(ip);
  const bytes = new Uint8Array(16);
  bytes.set(ip.bytes.slice(0, 8));
  return `${formatIp({ version: 6, bytes })}/64`;
}

export interface Cidr {
  version: 4 | 6;
  bytes: Uint8Array;
  bits: number;
}

/** `10.0.0.0/8`, `fd00::/8`, or a single address. Throws on anything else (operator input). */
export function parseCidr(text: string): Cidr {
  const [addr = "", bitsText] = text.trim().split("/");
  const ip = parseIp(addr);
  if (!ip) throw new Error(`not an IP address or CIDR: ${text}`);
  // An IPv4-mapped IPv6 CIDR (::ffff:10.0.0.0/104) is the IPv4 CIDR it maps.
  const mappedOffset = ip.version === 4 && addr.includes(":") ? 96 : 0;
  const max = ip.version === 4 ? 32 : 128;
  let bits = max;
  if (bitsText !== undefined) {
    if (
      !/^[0-9]{1,3}$/.test(bitsText) ||
      Number(bitsText) - mappedOffset > max ||
      Number(bitsText) < mappedOffset
    ) {
      throw new Error(`bad prefix length in ${text}`);
    }
    bits = Number(bitsText) - mappedOffset;
  }
  return { version: ip.version, bytes: ip.bytes, bits };
}

export function cidrContains(cidr: Cidr, ip: ParsedIp): boolean {
  if (cidr.version !== ip.version) return false;
  let bits = cidr.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((cidr.bytes[i] ?? 0) & mask) !== ((ip.bytes[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** A predicate for "is this address one of the trusted proxies". */
export function trustedProxies(list: readonly string[]): (address: string) => boolean {
  const cidrs = list.map(parseCidr);
  return (address) => {
    const ip = parseIp(address);
    return ip !== null && cidrs.some((c) => cidrContains(c, ip));
  };
}

/**
 * The client's address: the socket peer, unless the peer is a trusted proxy; then `X-Forwarded-For` is read
 * right to left, skipping trusted hops, and the first untrusted hop is the client. A malformed hop stops the
 * walk (nothing left of it can be believed) and the last good hop is used. Returns normalised text.
 */
export function resolveClientIp(
  peer: string | undefined,
  forwardedFor: string | null,
  isTrusted: (address: string) => boolean,
): string {
  const peerIp = peer ? normalizeIp(peer) : null;
  if (!peerIp) return "unknown";
  if (!forwardedFor || !isTrusted(peerIp)) return peerIp;
  let client = peerIp;
  const hops = forwardedFor.split(",");
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeIp(hopAddress(hops[i] ?? ""));
    if (!hop) break;
    client = hop;
    if (!isTrusted(hop)) break;
  }
  return client;
}

/** A hop may carry a port (`1.2.3.4:5678`, `[::1]:80`). */
function hopAddress(text: string): string {
  const t = text.trim();
  if (!t.includes(":")) return t;
  const bracket = /^\[([^\]]+)\](?::\d+)?$/.exec(t);
  if (bracket) return bracket[1] ?? "";
  const v4port = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(t);
  if (v4port) return v4port[1] ?? "";
  return t;
}
