/**
 * The IANA special-purpose address registries, as data: every row of
 *   - IPv4: https://www.iana.org/assignments/iana-ipv4-special-registry/iana-ipv4-special-registry-1.csv
 *   - IPv6: https://www.iana.org/assignments/iana-ipv6-special-registry/iana-ipv6-special-registry-1.csv
 * as published in July 2026 (newest row: 100:0:0:1::/64, RFC 9780, 2025-04), with the block, name, RFC and the
 * registry's "Globally Reachable" column (`null` where it says N/A or is empty: terminated rows, 6to4, Teredo).
 * Beside them, the blocks of the address-space registries that are no unicast destination:
 *   - https://www.iana.org/assignments/ipv4-address-space/ (224.0.0.0/4 multicast, RFC 5771)
 *   - https://www.iana.org/assignments/ipv6-address-space/ (only 2000::/3 is global unicast, RFC 4291)
 * To update: compare the registries' CSV files with these rows, add or change rows, and add the new block's
 * addresses to the guard's test (test/unit/address-guard.test.ts), which checks every row.
 */

export interface SpecialBlock {
  /** CIDR, as the registry writes it. */
  block: string;
  name: string;
  rfc: string;
  /** The registry's Globally Reachable column; null for N/A or none. */
  globallyReachable: boolean | null;
}

const row = (block: string, name: string, rfc: string, globallyReachable: boolean | null): SpecialBlock => ({
  block,
  name,
  rfc,
  globallyReachable,
});

export const IPV4_SPECIAL_PURPOSE: readonly SpecialBlock[] = [
  row("0.0.0.0/8", '"This network"', "RFC791, Section 3.2", false),
  row("0.0.0.0/32", '"This host on this network"', "RFC1122, Section 3.2.1.3", false),
  row("10.0.0.0/8", "Private-Use", "RFC1918", false),
  row("100.64.0.0/10", "Shared Address Space", "RFC6598", false),
  row("127.0.0.0/8", "Loopback", "RFC1122, Section 3.2.1.3", false),
  row("169.254.0.0/16", "Link Local", "RFC3927", false),
  row("172.16.0.0/12", "Private-Use", "RFC1918", false),
  row("192.0.0.0/24", "IETF Protocol Assignments", "RFC6890, Section 2.1", false),
  row("192.0.0.0/29", "IPv4 Service Continuity Prefix", "RFC7335", false),
  row("192.0.0.8/32", "IPv4 dummy address", "RFC7600", false),
  row("192.0.0.9/32", "Port Control Protocol Anycast", "RFC7723", true),
  row("192.0.0.10/32", "Traversal Using Relays around NAT Anycast", "RFC8155", true),
  row("192.0.0.170/32", "NAT64/DNS64 Discovery", "RFC8880, RFC7050 Section 2.2", false),
  row("192.0.0.171/32", "NAT64/DNS64 Discovery", "RFC8880, RFC7050 Section 2.2", false),
  row("192.0.2.0/24", "Documentation (TEST-NET-1)", "RFC5737", false),
  row("192.31.196.0/24", "AS112-v4", "RFC7535", true),
  row("192.52.193.0/24", "AMT", "RFC7450", true),
  row("192.88.99.0/24", "Deprecated (6to4 Relay Anycast)", "RFC7526", null),
  row("192.88.99.2/32", "6a44-relay anycast address", "RFC6751", false),
  row("192.168.0.0/16", "Private-Use", "RFC1918", false),
  row("192.175.48.0/24", "Direct Delegation AS112 Service", "RFC7534", true),
  row("198.18.0.0/15", "Benchmarking", "RFC2544", false),
  row("198.51.100.0/24", "Documentation (TEST-NET-2)", "RFC5737", false),
  row("203.0.113.0/24", "Documentation (TEST-NET-3)", "RFC5737", false),
  row("240.0.0.0/4", "Reserved", "RFC1112, Section 4", false),
  row("255.255.255.255/32", "Limited Broadcast", "RFC8190, RFC919 Section 7", false),
];

export const IPV6_SPECIAL_PURPOSE: readonly SpecialBlock[] = [
  row("::1/128", "Loopback Address", "RFC4291", false),
  row("::/128", "Unspecified Address", "RFC4291", false),
  row("::ffff:0:0/96", "IPv4-mapped Address", "RFC4291", false),
  row("64:ff9b::/96", "IPv4-IPv6 Translat.", "RFC6052", true),
  row("64:ff9b:1::/48", "IPv4-IPv6 Translat.", "RFC8215", false),
  row("100::/64", "Discard-Only Address Block", "RFC6666", false),
  row("100:0:0:1::/64", "Dummy IPv6 Prefix", "RFC9780", false),
  row("2001::/23", "IETF Protocol Assignments", "RFC2928", false),
  row("2001::/32", "TEREDO", "RFC4380, RFC8190", null),
  row("2001:1::1/128", "Port Control Protocol Anycast", "RFC7723", true),
  row("2001:1::2/128", "Traversal Using Relays around NAT Anycast", "RFC8155", true),
  row("2001:1::3/128", "DNS-SD Service Registration Protocol Anycast", "RFC9665", true),
  row("2001:2::/48", "Benchmarking", "RFC5180, RFC Errata 1752", false),
  row("2001:3::/32", "AMT", "RFC7450", true),
  row("2001:4:112::/48", "AS112-v6", "RFC7535", true),
  row("2001:10::/28", "Deprecated (previously ORCHID)", "RFC4843", null),
  row("2001:20::/28", "ORCHIDv2", "RFC7343", true),
  row("2001:30::/28", "Drone Remote ID Protocol Entity Tags (DETs) Prefix", "RFC9374", true),
  row("2001:db8::/32", "Documentation", "RFC3849", false),
  row("2002::/16", "6to4", "RFC3056", null),
  row("2620:4f:8000::/48", "Direct Delegation AS112 Service", "RFC7534", true),
  row("3fff::/20", "Documentation", "RFC9637", false),
  row("5f00::/16", "Segment Routing (SRv6) SIDs", "RFC9602", false),
  row("fc00::/7", "Unique-Local", "RFC4193, RFC8190", false),
  row("fe80::/10", "Link-Local Unicast", "RFC4291", false),
];

/** IPv4 blocks of the address-space registry that are no unicast destination. */
export const IPV4_NOT_UNICAST: readonly SpecialBlock[] = [row("224.0.0.0/4", "Multicast", "RFC5771", false)];

/** The IPv6 address-space registry's global unicast space: every address outside it is reserved or not unicast. */
export const IPV6_GLOBAL_UNICAST = "2000::/3";
