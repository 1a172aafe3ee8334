import type { ScoreName } from "../scores/catalogue.ts";
import type { ScanEvidence } from "./evidence.ts";

/** A university to scan: its domain, and its name and country where known (measurements may use them). */
export interface ScanTarget {
  domain: string;
  name?: string;
  country?: string;
}

/** What one scan of one university ends with, completed or failed; what `recordScanOutcome` stores. */
export interface ScanOutcome {
  status: "completed" | "failed";
  /** ISO 8601, `+00:00`, seconds. */
  started_at: string;
  completed_at: string;
  failure_reason?: string;
  /** Every sub-score, the composites and overall_score (all null on a failed scan). */
  scores: Partial<Record<ScoreName, number | null>>;
  /** What was seen, stored with the scan (unirank's scanner always gives it). */
  evidence?: ScanEvidence;
  /** The measurement parts that ran (`profileOf`); `unknown` when not given. */
  profile?: string;
  /** The rubric version that scored it (`RUBRIC_VERSION`); absent on a failed scan. */
  rubric_version?: number;
}

/** A failed outcome: no scores, the reason in the outcome and in its evidence. */
export function failedOutcome(
  reason: string,
  startedAt: string,
  completedAt: string,
): ScanOutcome & { evidence: ScanEvidence } {
  return {
    status: "failed",
    started_at: startedAt,
    completed_at: completedAt,
    failure_reason: reason,
    scores: {},
    evidence: { observations: null, checks: [], unmeasured: {}, failure_reason: reason },
  };
}
