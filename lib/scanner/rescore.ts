import { keysetBatches } from "../db/keyset-batches.ts";
import { invalidParameter, notFound } from "../errors.ts";
import type { DB } from "../schema/database.ts";
import { SCORE_NAMES, type ScoreName } from "../scores/catalogue.ts";
import type { ScanRecord } from "../write/records.ts";
import { roundScore } from "../write/score-precision.ts";
import { EVIDENCE_MAX_CHARS } from "../write/validate-record.ts";
import { writeRecords } from "../write/write-records.ts";
import { fitEvidence, type ScanEvidence } from "./evidence.ts";
import { rescoreEvidence } from "./rescore-evidence.ts";
import { RUBRIC_VERSION } from "./rubric-version.ts";

/** Which scans `rescoreScans` re-scores: exactly one of the three. */
export interface RescoreSelection {
  /** Every completed scan with evidence. */
  all?: boolean;
  /** The completed scans of these universities (each must be stored). */
  domains?: readonly string[];
  /** Completed scans scored under a rubric version below this one, or under none named. */
  before?: number;
}

export interface RescoreSummary {
  /** Completed scans with evidence that were looked at. */
  examined: number;
  /** Scans whose scores, evidence, profile or rubric version changed. */
  rescored: number;
  /** Scans that came out as stored. */
  unchanged: number;
  /** Scans whose evidence holds no observations (imported scores, evidence cut to fit): left as they are. */
  skipped: number;
}

export interface RescoreOptions {
  /** Scans read and written per transaction (default 200). */
  batchSize?: number;
  /** Called after each batch with the totals so far. */
  onBatch?: (summary: RescoreSummary) => void;
}

type Scores = Partial<Record<ScoreName, number | null>>;

const sameScores = (a: Scores, b: Scores) =>
  SCORE_NAMES.every((n) => (a[n] == null ? null : roundScore(Number(a[n]))) === (b[n] ?? null));

function checkSelection(s: RescoreSelection): void {
  const given = [s.all === true, s.domains !== undefined, s.before !== undefined].filter(Boolean).length;
  if (given !== 1) {
    throw invalidParameter([
      {
        param: "selection",
        message: "give exactly one of: all scans, domains, or a rubric version to re-score before",
      },
    ]);
  }
  if (s.domains !== undefined && s.domains.length === 0) {
    throw invalidParameter([{ param: "domains", message: "name at least one domain" }]);
  }
  if (s.before !== undefined && (!Number.isInteger(s.before) || s.before < 1)) {
    throw invalidParameter([{ param: "before", message: "the rubric version must be a positive integer" }]);
  }
}

/**
 * Re-scores stored scans under the current rubrics (`RUBRIC_VERSION`) from their evidence, in batches by scan id,
 * each written through the ingest writer as a re-score: the scans keep their ids, source ids, universities and
 * timestamps; their scores, evidence, profile and rubric version become what a fresh scan of the same
 * observations would give; rankings refresh; no `scan.completed` is recorded. Scans that come out as stored are
 * not written.
 */
export async function rescoreScans(
  db: DB,
  selection: RescoreSelection,
  options: RescoreOptions = {},
): Promise<RescoreSummary> {
  checkSelection(selection);
  const domains = selection.domains && [...new Set(selection.domains.map((d) => d.trim().toLowerCase()))];
  if (domains) {
    const stored = await db
      .selectFrom("universities")
      .select("domain")
      .where("domain", "in", domains)
      .execute();
    const found = new Set(stored.map((r) => r.domain));
    const missing = domains.filter((d) => !found.has(d));
    if (missing.length > 0) throw notFound(`not a stored university: ${missing.join(", ")}`);
  }
  const size = options.batchSize ?? 200;
  const summary: RescoreSummary = { examined: 0, rescored: 0, unchanged: 0, skipped: 0 };
  const batches = keysetBatches(size, (after) => {
    let q = db
      .selectFrom("scans as s")
      .innerJoin("scan_evidence as e", "e.scan_id", "s.id")
      .innerJoin("universities as u", "u.id", "s.university_id")
      .select([
        "s.id",
        "s.source_id",
        "u.domain",
        "s.started_at",
        "s.completed_at",
        "s.profile",
        "s.rubric_version",
        "e.evidence",
        ...SCORE_NAMES.map((n) => `s.${n}` as const),
      ])
      .where("s.status", "=", "completed")
      .where("s.source_id", "is not", null)
      .where("s.id", ">", after);
    if (domains) q = q.where("u.domain", "in", domains);
    if (selection.before !== undefined) {
      const before = selection.before;
      q = q.where((eb) => eb.or([eb("s.rubric_version", "is", null), eb("s.rubric_version", "<", before)]));
    }
    return q.orderBy("s.id").limit(size).execute();
  });
  for await (const rows of batches) {
    const records: ScanRecord[] = [];
    for (const row of rows) {
      summary.examined++;
      const stored = row as unknown as Scores;
      const evidence = JSON.parse(row.evidence) as ScanEvidence;
      const rescored = rescoreEvidence(evidence, stored, row.profile);
      if (rescored === null) {
        summary.skipped++;
        continue;
      }
      const fitted = fitEvidence(rescored.evidence, EVIDENCE_MAX_CHARS);
      const unchanged =
        sameScores(stored, rescored.scores) &&
        row.profile === rescored.profile &&
        row.rubric_version !== null &&
        Number(row.rubric_version) === RUBRIC_VERSION &&
        JSON.stringify(fitted) === row.evidence;
      if (unchanged) {
        summary.unchanged++;
        continue;
      }
      records.push({
        ...rescored.scores,
        type: "scan",
        source_id: row.source_id as string,
        domain: row.domain,
        status: "completed",
        started_at: row.started_at,
        completed_at: row.completed_at,
        profile: rescored.profile,
        rubric_version: RUBRIC_VERSION,
        evidence: fitted as unknown as Record<string, unknown>,
      });
    }
    if (records.length > 0) {
      await writeRecords(db, records, { rescore: true, events: false });
      summary.rescored += records.length;
    }
    options.onBatch?.({ ...summary });
  }
  return summary;
}
