/** IPv4 and IPv6 addresses as bytes, for SPF's network and CIDR matching (runtime-neutral, no node:net). */

export interface IpAddress {
  family: 4 | 6;
  bytes: Uint8Array;
}

const QNUM = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** A dotted-quad IPv4 address (no leading zeros, as RFC 7208's ip4-network), or null. */
export function parseIPv4(text: string): Uint8Array | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => QNUM.test(p))) return null;
  return Uint8Array.from(parts.map(Number));
}

/** An IPv6 address in RFC 4291 §2.2 text form (with `::` and an embedded IPv4 tail), or null. */
export function parseIPv6(text: string): Uint8Array | null {
  if (!/^[0-9a-f:.]+$/i.test(text)) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string): number[] | null => {
    if (part === "") return [];
    const out: number[] = [];
    const pieces = part.split(":");
    for (const [i, piece] of pieces.entries()) {
      if (i === pieces.length - 1 && piece.includes(".")) {
        const v4 = parseIPv4(piece);
        if (!v4) return null;
        out.push(((v4[0] as number) << 8) | (v4[1] as number), ((v4[2] as number) << 8) | (v4[3] as number));
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) out.push(Number.parseInt(piece, 16));
      else return null;
    }
    return out;
  };
  const head = groups(halves[0] as string);
  const tail = halves.length === 2 ? groups(halves[1] as string) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array(halves.length === 2 ? missing : 0).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  for (const [i, g] of all.entries()) {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  }
  return bytes;
}

/** Either family; an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is the IPv4 address (RFC 7208 §5). */
export function parseIp(text: string): IpAddress | null {
  const v4 = parseIPv4(text);
  if (v4) return { family: 4, bytes: v4 };
  const v6 = parseIPv6(text);
  if (!v6) return null;
  const mapped = v6.subarray(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff;
  return mapped ? { family: 4, bytes: v6.slice(12) } : { family: 6, bytes: v6 };
}

/** Whether the first `prefix` bits of two addresses of one family agree. */
export function inNetwork(ip: IpAddress, network: Uint8Array, prefix: number): boolean {
  if (ip.bytes.length !== network.length) return false;
  for (let bit = 0; bit < prefix; bit += 8) {
    const take = Math.min(8, prefix - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    const i = bit / 8;
    if (((ip.bytes[i] as number) & mask) !== ((network[i] as number) & mask)) return false;
  }
  return true;
}

const hex = (b: number) => b.toString(16).toUpperCase().padStart(2, "0");

/** The nibbles of an IPv6 address (upper case) or the octets of an IPv4 address, in order. */
export function ipLabels(ip: IpAddress): string[] {
  return ip.family === 4 ? [...ip.bytes].map(String) : [...ip.bytes].flatMap((b) => [...hex(b)]);
}

/** The reverse-lookup name (`4.3.2.1.in-addr.arpa`, nibbles `….ip6.arpa`). */
export function reverseName(ip: IpAddress): string {
  return `${ipLabels(ip).reverse().join(".")}.${ip.family === 4 ? "in-addr" : "ip6"}.arpa`;
}

/** The usual text form: dotted quad, or RFC 5952 (lower case, the longest run of zero groups as `::`). */
export function formatIp(ip: IpAddress): string {
  if (ip.family === 4) return [...ip.bytes].join(".");
  const groups = Array.from(
    { length: 8 },
    (_, i) => ((ip.bytes[2 * i] as number) << 8) | (ip.bytes[2 * i + 1] as number),
  );
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      best = i;
      bestLength = j - i;
    }
    i = j;
  }
  const text = groups.map((g) => g.toString(16));
  if (best < 0) return text.join(":");
  return `${text.slice(0, best).join(":")}::${text.slice(best + bestLength).join(":")}`;
}
