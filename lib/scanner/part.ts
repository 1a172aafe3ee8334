import type { ScoredPart } from "../scores/check-points.ts";

/** What a part is told about the university it measures. */
export interface PartTarget {
  /** The university's domain (may carry a `:port` in tests). */
  domain: string;
  name?: string;
  /** ISO 3166-1 alpha-2 code. */
  country?: string;
}

/** What every part of a scan shares: the scan's abort signal and the User-Agent naming unirank. */
export interface PartContext {
  signal?: AbortSignal;
  userAgent: string;
  /** The home page the scan reached (after redirects), when the scanner found one. */
  homeUrl?: string;
  /**
   * The address the scan reaches a host at: its own resolver's answer after its address guard (the same answer
   * for the same host within a scan); rejects with the reason for a host it may not or cannot reach.
   */
  address?: (host: string) => Promise<string>;
}

/** One part of a scan: measures some sub-scores of one university. Never throws for a site's or source's fault. */
export type ScanPart = (target: PartTarget, context: PartContext) => Promise<ScoredPart>;
