import type { ScoreName } from "../../scores/catalogue.ts";
import type { CheckPoints, ScoredPart } from "../../scores/check-points.ts";

/** Rounds to one decimal, the precision of every point count. */
export const roundPoints = (n: number): number => Math.round(n * 10) / 10;

/**
 * A check earning `points` of `max` (at most `max`, one decimal; negative for the penalties of modifier rubrics);
 * no remediation when all were earned.
 */
export function check(
  score: ScoreName,
  id: string,
  label: string,
  points: number,
  max: number,
  detail: string,
  remediation: string,
): CheckPoints {
  const p = roundPoints(Math.min(max, points));
  return { id, score, label, points: p, max, detail, remediation: p >= max ? null : remediation };
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
    if (p.grades) out.grades = { ...out.grades, ...p.grades };
  }
  return out;
}

/** Points by tiers: the points of the first tier whose floor `value` reaches, else 0. */
export function tiered(value: number, tiers: readonly [floor: number, points: number][]): number {
  for (const [floor, points] of tiers) if (value >= floor) return points;
  return 0;
}

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
