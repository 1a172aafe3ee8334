import { describe, expect, test } from "bun:test";
import {
  clientGroup,
  normalizeIp,
  parseCidr,
  resolveClientIp,
  trustedProxies,
} from "../../lib/access/client-ip.ts";

describe("client addresses", () => {
  test("normalises IPv4, IPv6 and IPv4-mapped IPv6", () => {
    expect(normalizeIp("1.2.3.4")).toBe("1.2.3.4");
    expect(normalizeIp("::ffff:1.2.3.4")).toBe("1.2.3.4");
    expect(normalizeIp("::FFFF:0102:0304")).toBe("1.2.3.4");
    expect(normalizeIp("[2001:DB8:0:0:0:0:0:1]")).toBe("2001:db8::1");
    expect(normalizeIp("fe80::1%eth0")).toBe("fe80::1");
    expect(normalizeIp("::1")).toBe("::1");
    expect(normalizeIp("1.2.3.256")).toBeNull();
    expect(normalizeIp("01.2.3.4.5")).toBeNull();
    expect(normalizeIp("not an ip")).toBeNull();
    expect(normalizeIp("1:2:3:4:5:6:7:8:9")).toBeNull();
  });

  test("an IPv4 address is four parts of one to three digits, each at most 255", () => {
    expect(normalizeIp("010.001.0.255")).toBe("10.1.0.255");
    expect(normalizeIp("255.255.255.255")).toBe("255.255.255.255");
    expect(normalizeIp(" 1.2.3.4 ")).toBe("1.2.3.4");
    expect(normalizeIp("::ffff:1.2.3.400")).toBeNull();
    for (const bad of ["", "1.2.3", "1.2.3.4.", ".1.2.3", "1..2.3", "1.2.3.", "1234.1.1.1", "1.2.3.0004"])
      expect({ bad, ip: normalizeIp(bad) }).toEqual({ bad, ip: null });
    for (const bad of [
      "1.2.3.-4",
      "+1.2.3.4",
      "1.2.3.4a",
      "1.2.3.4/8",
      "1.2.3.256",
      "0x1.2.3.4",
      "1.2.3.4:80",
    ])
      expect({ bad, ip: normalizeIp(bad) }).toEqual({ bad, ip: null });
  });

  test("IPv6 clients are grouped by /64; mapped IPv4 counts as the IPv4 address", () => {
    expect(clientGroup("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(clientGroup("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(clientGroup("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(clientGroup("::ffff:10.0.0.7")).toBe(clientGroup("10.0.0.7"));
    expect(clientGroup("10.0.0.7")).toBe("10.0.0.7");
    expect(clientGroup("10.0.0.8")).not.toBe(clientGroup("10.0.0.7"));
    expect(clientGroup("garbage")).toBe("unknown");
  });

  test("CIDRs match IPv4 and IPv6, mapped addresses included", () => {
    const trusted = trustedProxies(["10.0.0.0/8", "192.168.1.1", "fd00::/8", "::ffff:172.16.0.0/108"]);
    expect(trusted("10.255.1.2")).toBe(true);
    expect(trusted("::ffff:10.1.1.1")).toBe(true);
    expect(trusted("11.0.0.1")).toBe(false);
    expect(trusted("192.168.1.1")).toBe(true);
    expect(trusted("192.168.1.2")).toBe(false);
    expect(trusted("fd12:3456::1")).toBe(true);
    expect(trusted("fe80::1")).toBe(false);
    expect(trusted("172.16.5.5")).toBe(true);
    expect(trusted("172.32.0.1")).toBe(false);
    expect(() => parseCidr("10.0.0.0/33")).toThrow();
    expect(() => parseCidr("example.com")).toThrow();
  });

  test("X-Forwarded-For is believed only from trusted peers, right to left", () => {
    const trusted = trustedProxies(["127.0.0.1", "10.0.0.0/8"]);
    // Untrusted peer: the header is ignored whatever it says.
    expect(resolveClientIp("203.0.113.9", "1.1.1.1", trusted)).toBe("203.0.113.9");
    // Trusted peer: the rightmost untrusted hop is the client; hops the client wrote further left are not believed.
    expect(resolveClientIp("127.0.0.1", "6.6.6.6, 198.51.100.7", trusted)).toBe("198.51.100.7");
    expect(resolveClientIp("127.0.0.1", "6.6.6.6, 198.51.100.7, 10.1.2.3", trusted)).toBe("198.51.100.7");
    expect(resolveClientIp("::ffff:127.0.0.1", "198.51.100.7:5555", trusted)).toBe("198.51.100.7");
    expect(resolveClientIp("127.0.0.1", "[2001:db8::5]:443", trusted)).toBe("2001:db8::5");
    // Everything trusted: the leftmost hop.
    expect(resolveClientIp("127.0.0.1", "10.0.0.1, 10.0.0.2", trusted)).toBe("10.0.0.1");
    // A malformed hop stops the walk at the last good one.
    expect(resolveClientIp("127.0.0.1", "1.1.1.1, bogus, 10.9.9.9", trusted)).toBe("10.9.9.9");
    expect(resolveClientIp("127.0.0.1", "", trusted)).toBe("127.0.0.1");
    expect(resolveClientIp(undefined, "1.1.1.1", trusted)).toBe("unknown");
  });
});
