import type { ScoreName } from "./catalogue.ts";

/** One rubric check as scored: the points earned out of its maximum, what was seen and how to do better. */
export interface CheckPoints {
  /** Stable id, `<area>.<check>` (e.g. `hsts.max-age`), documented in docs/scanner.md. */
  id: string;
  /** The sub-score the check counts towards. */
  score: ScoreName;
  label: string;
  points: number;
  max: number;
  /** What was observed, in one sentence. */
  detail: string;
  /** What to change to earn the missing points; null when the check earned all of them. */
  remediation: string | null;
}

/** A sub-score's grade on its reference's own scale (the HTTP Observatory's A+ … F), with what made it. */
export interface RubricGrade {
  /** The reference whose scale it is (a key of the rubric references, e.g. `mdn-observatory`). */
  scale: string;
  /** The reference's score before unirank's 0–100 clamp. */
  score: number;
  grade: string;
  /** Test → its result and modifier, as the reference names them. */
  tests: Record<string, { result: string; modifier: number }>;
}

/** What a rubric makes of its observations: final 0–100 sub-scores, the checks behind them, and why any is null. */
export interface ScoredPart {
  scores: Partial<Record<ScoreName, number | null>>;
  checks: CheckPoints[];
  /** Sub-scores left null, with the reason (no browser, source off, unreachable …). */
  unmeasured: Partial<Record<ScoreName, string>>;
  /** Grades on a reference's own scale, by sub-score. */
  grades?: Partial<Record<ScoreName, RubricGrade>>;
}
