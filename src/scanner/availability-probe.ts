import type { AvailabilityProbe, ProbeResult } from "../../lib/index.ts";
import { VERSION } from "../version.ts";
import { HostQueue } from "./host-queue.ts";
import { fetchOnce } from "./http-client.ts";
import { SCANNER_DEFAULTS, type ScannerSettings, scanContext } from "./scan-context.ts";

export interface AvailabilityProbeOptions extends ScannerSettings {
  /** The URL probed for a domain (default `https://<domain>/`, on the scan ports). */
  url?: (domain: string) => string;
  /** No answer within this long is not answered (default the scans' request timeout, 10 s). */
  timeoutMs?: number;
}

/**
 * The availability probe: a HEAD of the home page (`https://<domain>/` unless `url` says otherwise), redirects
 * not followed, sent the way a scan reaches a site (its resolver, address guard, ports and client, through one
 * host queue). Answered means an HTTP status below 500 within the timeout; the certificate is not a condition (the
 * TLS checks score it), as for the pages a scan reads.
 */
export function availabilityProbe(options: AvailabilityProbeOptions = {}): AvailabilityProbe {
  const url = options.url ?? ((domain: string) => `https://${domain}/`);
  const settings: ScannerSettings = {
    ...options,
    requestTimeoutMs: options.timeoutMs ?? options.requestTimeoutMs ?? SCANNER_DEFAULTS.requestTimeoutMs,
    hosts: options.hosts ?? new HostQueue(options.delayMs ?? SCANNER_DEFAULTS.delayMs),
  };
  return async (domain, signal): Promise<ProbeResult> => {
    const ctx = scanContext(settings, VERSION, signal);
    try {
      const response = await fetchOnce(url(domain), ctx, "HEAD");
      const answered = response.status < 500;
      return {
        answered,
        status_code: response.status,
        ...(answered ? {} : { error: `HTTP ${response.status}` }),
      };
    } catch (e) {
      return { answered: false, error: e instanceof Error ? e.message : String(e) };
    } finally {
      ctx.pool.close();
    }
  };
}
