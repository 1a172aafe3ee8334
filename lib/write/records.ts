import type { ScanStatus } from "../schema/database.ts";
import type { ScoreName } from "../scores/catalogue.ts";

/** The record shapes unirank ingests (seed, import): one flat object each, so NDJSON and CSV agree. */

export interface UniversityRecord {
  type: "university";
  domain: string;
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** `YYYY-MM-DD HH:MM:SS` UTC; defaults to the time of the import. */
  created_at?: string;
}

export type ScanRecord = {
  type: "scan";
  /** The producer's id of the scan; a re-import with the same id changes nothing. */
  source_id: string;
  /** Domain of a university in the same import or already stored. */
  domain: string;
  status: ScanStatus;
  started_at?: string | null;
  completed_at?: string | null;
  /** What the scan found beside its scores: a JSON object of at most `EVIDENCE_MAX_CHARS` characters as JSON. */
  evidence?: Record<string, unknown> | null;
  /** The measurement parts that made its scores (`site,browser` …); `unknown` when not given. */
  profile?: string | null;
  /** The version of unirank's rubrics that scored it; null when not given. */
  rubric_version?: number | null;
} & Partial<Record<ScoreName, number | null>>;

export type IngestRecord = UniversityRecord | ScanRecord;
