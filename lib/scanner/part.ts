import type { ScoredPart } from "../scores/check-points.ts";
import type { ProfilePartName } from "../scores/profile.ts";
import type { Observations } from "./observations.ts";
import type { ScanTarget } from "./scan-outcome.ts";

/** What every part of a scan shares: the scan's abort signal, the User-Agent naming unirank, what was seen. */
export interface PartContext {
  signal?: AbortSignal;
  userAgent: string;
  /** The home page the scan reached (after redirects), when the scanner found one. */
  homeUrl?: string;
  /** The own-site observations of the scan the part belongs to. */
  observations?: Observations;
  /**
   * The address the scan reaches a host at: its own resolver's answer after its address guard (the same answer
   * for the same host within a scan); rejects with the reason for a host it may not or cannot reach.
   */
  address?: (host: string) => Promise<string>;
}

/**
 * One part of a scan (a browser, an open index): measures some sub-scores of one university; its scores replace
 * the own-site ones and fill the null ones. Never throws for a site's or source's fault. A part that measures
 * when asked names itself in `profile` (the browser with a Chromium, a source that is on); the `observations` it
 * returns are kept in the scan's evidence under that name, so its sub-scores re-score too.
 */
export type ScanPart = ((
  target: ScanTarget,
  context: PartContext,
) => Promise<ScoredPart & { observations?: unknown }>) & { readonly profile?: ProfilePartName };
