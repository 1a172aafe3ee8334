import { isIP } from "node:net";
import { isPrivateAddress } from "../../lib/node/address-guard.ts";
import { queryDns } from "./dns-client.ts";
import { HostQueue } from "./host-queue.ts";
import { type ResolverAddress, systemResolverAddress } from "./resolver-address.ts";
import { SCANNER_DEFAULTS } from "./scanner-defaults.ts";

export { SCANNER_DEFAULTS };

import { ConnectionPool, FetchError } from "./connection-pool.ts";

/** How a scan behaves; every field has a default (see `docs/scanner.md`). */
export interface ScannerSettings {
  /** The DNS resolver asked for every record (`--resolver`); the system's first one by default. */
  resolver?: ResolverAddress;
  /** A contact URL or address named in the User-Agent (`--contact`). */
  contact?: string;
  /** Let targets on loopback and private addresses through (`--allow-private-targets`, for tests). */
  allowPrivateTargets?: boolean;
  /** Which loopback, private or reserved addresses may be reached without `allowPrivateTargets` (tests; none). */
  privateAllowed?: (address: string) => boolean;
  /** Extra trusted CA certificates, PEM (`--ca-file`). */
  ca?: string[];
  /** Ports used for URLs without one (default 80 and 443; fixtures use others). */
  ports?: { http?: number; https?: number };
  /** Pages fetched by the crawl, the home page included (default 20). */
  maxPages?: number;
  /** Per-request timeout in ms (default 10,000). */
  requestTimeoutMs?: number;
  /** Per-scan timeout in ms (default 120,000). */
  scanTimeoutMs?: number;
  /** Byte cap per response body (default 5 MiB). */
  maxBytes?: number;
  /** Pause between two requests to the same host, in ms (default 200). */
  delayMs?: number;
  /** One queue per host shared by concurrent scans (made when not given). */
  hosts?: HostQueue;
}

/** What the collectors of one scan share. */
export interface ScanContext {
  userAgent: string;
  resolver: ResolverAddress;
  ports: { http: number; https: number };
  requestTimeoutMs: number;
  maxBytes: number;
  maxPages: number;
  ca: string[];
  hosts: HostQueue;
  signal: AbortSignal;
  /** Kept-alive connections of this scan; `close()` them when it ends. */
  pool: ConnectionPool;
  /** The address to connect to for a host, after the private-address guard (cached per scan). */
  address(host: string): Promise<string>;
}

/** `unirank/<version> (+<contact>)`: names unirank and, with `--contact`, who runs the scan. */
export function userAgent(contact: string | undefined, version: string): string {
  return contact ? `unirank/${version} (+${contact})` : `unirank/${version}`;
}

/**
 * The scanner's way to a host's address: an A lookup through its resolver, then the address guard on every
 * address of the answer (a loopback, private or reserved one refuses the host unless allowed). Rejects with a
 * `FetchError` saying why. The scan, its probes and its browser all reach sites through this.
 */
export function guardedLookup(
  settings: Pick<ScannerSettings, "resolver" | "allowPrivateTargets" | "privateAllowed" | "requestTimeoutMs">,
): (host: string) => Promise<string> {
  const resolver = settings.resolver ?? systemResolverAddress();
  const timeoutMs = Math.min(settings.requestTimeoutMs ?? SCANNER_DEFAULTS.requestTimeoutMs, 5000);
  const allowed = settings.allowPrivateTargets ? () => true : (settings.privateAllowed ?? (() => false));
  return async (host) => {
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else {
      const answer = await queryDns(resolver, host, "A", timeoutMs).catch((e: Error) => {
        throw new FetchError(`cannot resolve ${host}: ${e.message}`);
      });
      addresses = answer.records;
      if (addresses.length === 0) throw new FetchError(`cannot resolve ${host}: no A record`);
    }
    const blocked = addresses.find((a) => isPrivateAddress(a) && !allowed(a));
    if (blocked)
      throw new FetchError(
        `refused: ${host} resolves to ${blocked}, a loopback, private or reserved address (allow with --allow-private-targets)`,
      );
    return addresses[0] as string;
  };
}

export function scanContext(settings: ScannerSettings, version: string, signal: AbortSignal): ScanContext {
  const resolver = settings.resolver ?? systemResolverAddress();
  const requestTimeoutMs = settings.requestTimeoutMs ?? SCANNER_DEFAULTS.requestTimeoutMs;
  const cache = new Map<string, Promise<string>>();
  const lookup = guardedLookup({ ...settings, resolver });
  return {
    userAgent: userAgent(settings.contact, version),
    resolver,
    ports: { http: settings.ports?.http ?? 80, https: settings.ports?.https ?? 443 },
    requestTimeoutMs,
    maxBytes: settings.maxBytes ?? SCANNER_DEFAULTS.maxBytes,
    maxPages: settings.maxPages ?? SCANNER_DEFAULTS.maxPages,
    ca: settings.ca ?? [],
    hosts: settings.hosts ?? new HostQueue(settings.delayMs ?? SCANNER_DEFAULTS.delayMs),
    signal,
    pool: new ConnectionPool(),
    address(host) {
      const key = host.toLowerCase();
      let p = cache.get(key);
      if (!p) {
        p = lookup(key);
        cache.set(key, p);
      }
      return p;
    },
  };
}
