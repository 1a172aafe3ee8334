import type { ScoreName } from "../scores/catalogue.ts";
import type { ScanEvidence } from "./evidence.ts";

/** What one scan of one university ends with, completed or failed; what the scheduler stores. */
export interface ScanOutcome {
  status: "completed" | "failed";
  /** ISO 8601, `+00:00`, seconds. */
  started_at: string;
  completed_at: string;
  failure_reason?: string;
  /** Every sub-score, the composites and overall_score (all null on a failed scan). */
  scores: Partial<Record<ScoreName, number | null>>;
  /** What was seen, stored with the scan (the scanner always gives it). */
  evidence?: ScanEvidence;
  /** The measurement parts that ran (`profileOf`); `unknown` when not given. */
  profile?: string;
  /** The rubric version that scored it (`RUBRIC_VERSION`); absent on a failed scan. */
  rubric_version?: number;
}
