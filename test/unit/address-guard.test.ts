import { expect, test } from "bun:test";
import ipaddr from "ipaddr.js";
import { isPrivateAddress, refusedBlock, refuseReceiverUrl } from "../../lib/node/address-guard.ts";
import {
  IPV4_NOT_UNICAST,
  IPV4_SPECIAL_PURPOSE,
  IPV6_SPECIAL_PURPOSE,
  type SpecialBlock,
} from "../../lib/node/special-purpose-registry.ts";

/**
 * The address guard against the IANA special-purpose registries, block by block: the first, second, last but one
 * and last address of every row are refused, and the addresses just outside a row are let through unless another
 * row (or, for IPv6, the space outside 2000::/3) holds them.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const text = (a: Address) => (a.kind() === "ipv6" ? (a as ipaddr.IPv6).toRFC5952String() : a.toString());

/** The address `delta` (±1) away, or null past either end of the space. */
function step(a: Address, delta: number): Address | null {
  const bytes = a.toByteArray();
  for (let i = bytes.length - 1; i >= 0; i--) {
    const v = (bytes[i] ?? 0) + delta;
    if (v >= 0 && v <= 255) {
      bytes[i] = v;
      return ipaddr.fromByteArray(bytes);
    }
    bytes[i] = delta > 0 ? 0 : 255;
  }
  return null;
}

function edges(block: SpecialBlock): { inside: Address[]; outside: Address[] } {
  const v6 = block.block.includes(":");
  const kind = v6 ? ipaddr.IPv6 : ipaddr.IPv4;
  const first: Address = kind.networkAddressFromCIDR(block.block);
  const last: Address = kind.broadcastAddressFromCIDR(block.block);
  const inside = [first, step(first, 1), step(last, -1), last].filter(
    (a): a is Address => a?.match(ipaddr.parseCIDR(block.block)) === true,
  );
  const outside = [step(first, -1), step(last, 1)].filter((a): a is Address => a !== null);
  return { inside, outside };
}

const ALL = [...IPV4_SPECIAL_PURPOSE, ...IPV4_NOT_UNICAST, ...IPV6_SPECIAL_PURPOSE];
/** Rows whose addresses are judged by the IPv4 address they carry. */
const CARRIERS = new Set(["::ffff:0:0/96", "64:ff9b::/96"]);

const listed = (a: Address) =>
  ALL.some((b) => b.block.includes(":") === (a.kind() === "ipv6") && a.match(ipaddr.parseCIDR(b.block))) ||
  (a.kind() === "ipv6" && !a.match(ipaddr.parseCIDR("2000::/3")));

test("every row of both registries: its addresses are refused and the block named is the row or one inside it", () => {
  const wrong: string[] = [];
  for (const row of ALL) {
    for (const a of edges(row).inside) {
      const named = refusedBlock(text(a));
      if (named === null) wrong.push(`${text(a)} (${row.block}) let through`);
      else if (!CARRIERS.has(row.block)) {
        const cidr = ipaddr.parseCIDR(named.block);
        if (!a.match(cidr) || cidr[1] < ipaddr.parseCIDR(row.block)[1])
          wrong.push(`${text(a)} (${row.block}) named as ${named.block}`);
      }
    }
  }
  expect(wrong).toEqual([]);
});

test("just outside a row, an address of no other row is let through", () => {
  const wrong: string[] = [];
  let checked = 0;
  for (const row of ALL) {
    for (const a of edges(row).outside) {
      if (listed(a)) continue;
      checked++;
      if (isPrivateAddress(text(a))) wrong.push(`${text(a)} (next to ${row.block}) refused`);
    }
  }
  expect(wrong).toEqual([]);
  expect(checked).toBeGreaterThan(30);
});

test("the forms that slipped through, and IPv4 carried in IPv6", () => {
  for (const a of [
    "::ffff:0:7f00:1", // IPv4-translated 127.0.0.1 (::ffff:0:0:0/96, outside global unicast)
    "::ffff:0:a00:5",
    "64:ff9b:1::a9fe:a9fe", // local-use NAT64
    "64:ff9b:1::808:808",
    "2001::1", // Teredo
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "2001:1::1",
    "2001:2::1",
    "2001:3::1",
    "2001:4:112::1",
    "2001:10::1",
    "2001:20::1",
    "2001:30::1",
    "2001:1ff::1", // the rest of 2001::/23
    "3fff::1",
    "3fff:fff:ffff::1",
    "192.31.196.1",
    "192.175.48.1",
    "192.52.193.1",
    "192.0.0.9",
    "192.88.99.2",
    "100:0:0:1::1",
    "5f00::1",
    "2002:808:808::1", // 6to4, whatever it carries
    "2620:4f:8000::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "[::ffff:169.254.169.254]",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b::10.0.0.1",
    "::127.0.0.1", // IPv4-compatible (deprecated): outside global unicast
    "fec0::1",
    "ff02::1",
    "fe80::1%eth0",
    "224.0.0.1",
    "239.255.255.255",
    "255.255.255.255",
    "127.1", // not a dotted quad: not an address at all
    "0x7f.0.0.1",
    "",
    "example.org",
  ]) {
    expect([a, isPrivateAddress(a)]).toEqual([a, true]);
  }
  for (const a of [
    "8.8.8.8",
    "1.1.1.1",
    "192.31.195.255",
    "192.31.197.0",
    "192.175.47.255",
    "192.175.49.0",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "2001:200::1",
    "3fff:1000::1",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "[2a00:1450:4001:80b::200e]",
  ]) {
    expect([a, isPrivateAddress(a)]).toEqual([a, false]);
  }
});

test("a refusal names the block", async () => {
  expect(refusedBlock("192.175.48.7")?.name).toBe("Direct Delegation AS112 Service");
  expect(refusedBlock("192.0.0.9")?.name).toBe("Port Control Protocol Anycast");
  expect(refusedBlock("2001:2::5")?.block).toBe("2001:2::/48");
  expect(await refuseReceiverUrl("http://[3fff::1]/hook")).toContain("3fff::/20, Documentation, RFC9637");
  const resolve = async () => ["93.184.216.34", "192.31.196.1"];
  expect(await refuseReceiverUrl("https://sink.test/", { resolve })).toContain(
    "192.31.196.1 (192.31.196.0/24, AS112-v4, RFC7535)",
  );
});
