import type { ScoreName } from "../scores/catalogue.ts";
import type { CheckPoints, ScoredPart } from "./check.ts";

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
}

/** One part of a scan: measures some sub-scores of one university. Never throws for a site's or source's fault. */
export type ScanPart = (target: PartTarget, context: PartContext) => Promise<ScoredPart>;

/** Rounds to one decimal, the precision of every point count. */
export const roundPoints = (n: number): number => Math.round(n * 10) / 10;

/** A 0–100 sub-score from checks: the share of their points earned, with one decimal like every score. */
export function scoreFromChecks(checks: readonly CheckPoints[]): number {
  let points = 0;
  let max = 0;
  for (const c of checks) {
    points += c.points;
    max += c.max;
  }
  return max === 0 ? 0 : Math.round((1000 * points) / max) / 10;
}

/** A part whose every listed sub-score is null for one reason. */
export function unmeasuredPart(names: readonly ScoreName[], reason: string): ScoredPart {
  const scores: ScoredPart["scores"] = {};
  const unmeasured: ScoredPart["unmeasured"] = {};
  for (const n of names) {
    scores[n] = null;
    unmeasured[n] = reason;
  }
  return { scores, checks: [], unmeasured };
}

/** Several parts as one (scores, checks and reasons side by side). */
export function mergeParts(...parts: ScoredPart[]): ScoredPart {
  const out: ScoredPart = { scores: {}, checks: [], unmeasured: {} };
  for (const p of parts) {
    Object.assign(out.scores, p.scores);
    out.checks.push(...p.checks);
    Object.assign(out.unmeasured, p.unmeasured);
  }
  return out;
}

/** A check earning `points` of `max`; the remediation is dropped when all points were earned. */
export function check(
  id: string,
  score: ScoreName,
  label: string,
  points: number,
  max: number,
  detail: string,
  remediation: string,
): CheckPoints {
  const p = roundPoints(Math.max(0, Math.min(max, points)));
  return { id, score, label, points: p, max, detail, remediation: p >= max ? null : remediation };
}
