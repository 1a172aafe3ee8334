import type { Generated } from "kysely";

/** One row per university: its scan lease, the attempt in progress, the last outcome and the next probe. */
export interface ScanClaimsTable {
  university_id: number;
  /** The server scanning it now; null when free. */
  owner: string | null;
  /** ISO 8601; past it, another server may take the university over. */
  lease_until: string | null;
  /** Source id the attempt in progress will be stored under. */
  attempt_id: string | null;
  started_at: string | null;
  last_attempt_at: string | null;
  last_status: "completed" | "failed" | null;
  last_error: string | null;
  next_probe_at: string | null;
}

export interface AvailabilityProbesTable {
  id: Generated<number>;
  university_id: number;
  probed_at: string;
  /** 1 when the home page answered (an HTTP status below 500 in time). */
  answered: number;
  status_code: number | null;
  error: string | null;
}
