import type { Generated, Kysely } from "kysely";
import type { RankedScoreName, ScoreName } from "../scores/catalogue.ts";
import type { AvailabilityProbesTable, ScanClaimsTable } from "./scheduler-tables.ts";
import type {
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookReceiversTable,
} from "./webhook-tables.ts";

/** A score column: a number 0..100 or null when not measured. */
export type ScoreColumn = number | null;

export interface UniversitiesTable {
  id: Generated<number>;
  domain: string;
  name: string;
  country: string;
  /** UTC, `YYYY-MM-DD HH:MM:SS`. */
  created_at: string;
  /** Lower-cased, accent- and width-folded `name domain`, for search. */
  search_text: string;
}

export type ScanStatus = "pending" | "running" | "completed" | "failed";

/** Scores live in one column each; their names come from the score catalogue. */
export type ScansTable = ScanBase & { [K in ScoreName]: ScoreColumn };

export interface ScanBase {
  id: Generated<number>;
  university_id: number;
  /** Identifier given by the producer of the scan (import), unique, so re-imports change nothing. */
  source_id: string | null;
  status: ScanStatus;
  /** ISO 8601 with `+00:00`. */
  started_at: string | null;
  completed_at: string | null;
  /** The measurement parts that made its scores (`site,browser` …) or `unknown` (migration 010). */
  profile: Generated<string>;
  /** The version of unirank's rubrics that scored it; null when they did not (migration 010). */
  rubric_version: number | null;
}

/** What a scan found, beside its scores: a JSON object as text (migration 008). */
export interface ScanEvidenceTable {
  scan_id: number;
  evidence: string;
}

/** One row per university with a completed scan: that latest scan, denormalised for rankings. */
export type LatestScansTable = LatestBase & { [K in RankedScoreName]: ScoreColumn } & {
  [K in RankedScoreName as `prev_${K}`]: ScoreColumn;
};

export interface LatestBase {
  university_id: number;
  scan_id: number;
  completed_at: string;
  country: string;
  /** The completed scan just before `scan_id` (same order), null when there is none; its scores are `prev_*`. */
  previous_scan_id: number | null;
  previous_completed_at: string | null;
  /** Completed scans of the university. */
  scan_count: number;
  /** The profile of the latest scan, and of the previous one (null when there is none). */
  profile: string;
  prev_profile: string | null;
}

export interface MetaTable {
  key: string;
  value: string;
}

/** A university whose latest scan a data generation may have changed (`0`: none did). */
export interface LatestScanChangesTable {
  generation: number;
  university_id: number;
}

export interface Database {
  universities: UniversitiesTable;
  scans: ScansTable;
  scan_evidence: ScanEvidenceTable;
  latest_scans: LatestScansTable;
  unirank_meta: MetaTable;
  latest_scan_changes: LatestScanChangesTable;
  webhook_receivers: WebhookReceiversTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  scan_claims: ScanClaimsTable;
  availability_probes: AvailabilityProbesTable;
}

export type DB = Kysely<Database>;
