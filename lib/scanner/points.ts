import type { ScoreName } from "../scores/catalogue.ts";
import type { CheckPoints, ScoredPart } from "./check.ts";

/** One check: `remediation` is dropped when every point was earned. */
export function check(
  score: ScoreName,
  id: string,
  label: string,
  points: number,
  max: number,
  detail: string,
  remediation: string,
): CheckPoints {
  return { id, score, label, points, max, detail, remediation: points >= max ? null : remediation };
}

/** A sub-score from its checks: the points earned over the points possible, as 0–100, rounded. */
export function scoredFrom(score: ScoreName, checks: CheckPoints[]): ScoredPart {
  const max = checks.reduce((n, c) => n + c.max, 0);
  const points = checks.reduce((n, c) => n + c.points, 0);
  return { scores: { [score]: max === 0 ? 0 : Math.round((points / max) * 100) }, checks, unmeasured: {} };
}

/** A sub-score left null, and why. */
export function unmeasured(score: ScoreName, reason: string): ScoredPart {
  return { scores: { [score]: null }, checks: [], unmeasured: { [score]: reason } };
}

/** Several parts as one; a later part's score replaces an earlier one's. */
export function mergeParts(parts: ScoredPart[]): ScoredPart {
  const out: ScoredPart = { scores: {}, checks: [], unmeasured: {} };
  for (const p of parts) {
    for (const [name, value] of Object.entries(p.scores) as [ScoreName, number | null][]) {
      out.scores[name] = value;
      if (value !== null) delete out.unmeasured[name];
    }
    out.checks.push(...p.checks);
    for (const [name, reason] of Object.entries(p.unmeasured) as [ScoreName, string][]) {
      if (typeof out.scores[name] !== "number") out.unmeasured[name] = reason;
    }
  }
  return out;
}

/** Points by tiers: the points of the first tier whose floor `value` reaches, else 0. */
export function tiered(value: number, tiers: readonly [floor: number, points: number][]): number {
  for (const [floor, points] of tiers) if (value >= floor) return points;
  return 0;
}
