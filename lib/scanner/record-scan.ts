import type { DB } from "../schema/database.ts";
import { fillDerivedScores } from "../scores/derive.ts";
import { profileOf, profileParts, UNKNOWN_PROFILE } from "../scores/profile.ts";
import type { Clock } from "../time/format.ts";
import type { ScanRecord } from "../write/records.ts";
import { EVIDENCE_MAX_CHARS } from "../write/validate-record.ts";
import { IngestRejectedError, writeRecords } from "../write/write-records.ts";
import { fitEvidence } from "./evidence.ts";
import type { Availability } from "./observations.ts";
import { failedOutcome, type ScanOutcome } from "./scan-outcome.ts";
import { uptimePercent } from "./uptime.ts";

/** One scan as stored: the producer's id of it and the university's domain. */
export interface ScanAttempt {
  /** `source_id` of the scan row (`unirank-scan:…` from `unirank scan`, `scheduler:…` from `serve`). */
  source_id: string;
  domain: string;
}

export interface RecordScanOptions {
  /** The time of the write (webhook timestamps); default the clock's. */
  now?: Date;
  clock?: Clock;
  /** Record the `scan.completed` webhook delivery of a completed scan (default true). */
  events?: boolean;
}

/** Writes the scan as `running` from `startedAt` on (ISO 8601); no webhook is recorded for it. */
export async function recordScanStart(
  db: DB,
  attempt: ScanAttempt,
  startedAt: string,
  options: RecordScanOptions = {},
): Promise<void> {
  await writeRecords(
    db,
    [
      {
        type: "scan",
        source_id: attempt.source_id,
        domain: attempt.domain,
        status: "running",
        started_at: startedAt,
      },
    ],
    { ...options, events: false },
  );
}

/**
 * Stores the outcome of a scan, the one way every scanner does: a completed scan without `tech_uptime_score`
 * gets it from `availability` (the share of probes answered, `uptimePercent`; `availability` then joins its
 * profile), its profile and rubric version are kept, its composites and
 * `overall_score` are derived where missing, its evidence is cut to fit the writer's cap (`fitEvidence` under
 * `EVIDENCE_MAX_CHARS`), and the scan is written (a completed one refreshes the rankings and records its webhook).
 * An outcome the writer refuses is closed as failed, saying why; a storage fault (a full disk) is thrown, for the
 * caller to try again. Resolves with the outcome as stored.
 */
export async function recordScanOutcome(
  db: DB,
  attempt: ScanAttempt,
  outcome: ScanOutcome,
  options: RecordScanOptions & { availability?: Availability | null } = {},
): Promise<ScanOutcome> {
  const { availability, ...write } = options;
  let stored = outcome;
  if (outcome.status === "completed") {
    const scores = { ...outcome.scores };
    let profile = outcome.profile;
    if (scores.tech_uptime_score == null) {
      scores.tech_uptime_score = uptimePercent(availability);
      // Probes given here are a part of the scan's measurements like any other.
      if (scores.tech_uptime_score !== null && profile && profile !== UNKNOWN_PROFILE)
        profile = profileOf([...profileParts(profile), "availability"]);
    }
    stored = { ...outcome, scores: fillDerivedScores(scores), ...(profile ? { profile } : {}) };
  }
  try {
    await writeRecords(db, [scanRecord(attempt, stored)], write);
    return stored;
  } catch (e) {
    if (!(e instanceof IngestRejectedError)) throw e;
    const reason = `the scan could not be stored: ${e.message}`;
    const failed = failedOutcome(reason, outcome.started_at, outcome.completed_at);
    await writeRecords(db, [scanRecord(attempt, failed)], write);
    return failed;
  }
}

function scanRecord(attempt: ScanAttempt, outcome: ScanOutcome): ScanRecord {
  return {
    type: "scan",
    source_id: attempt.source_id,
    domain: attempt.domain,
    status: outcome.status,
    started_at: outcome.started_at,
    completed_at: outcome.completed_at,
    ...(outcome.evidence !== undefined
      ? { evidence: fitEvidence(outcome.evidence, EVIDENCE_MAX_CHARS) }
      : {}),
    ...(outcome.status === "completed" ? outcome.scores : {}),
    ...(outcome.status === "completed" && outcome.profile ? { profile: outcome.profile } : {}),
    ...(outcome.status === "completed" && outcome.rubric_version
      ? { rubric_version: outcome.rubric_version }
      : {}),
  } as ScanRecord;
}
