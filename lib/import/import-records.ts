import type { DB } from "../schema/database.ts";
import { SCORE_NAMES } from "../scores/catalogue.ts";
import { searchKey } from "../text/search-key.ts";
import { type Clock, sqlTimestamp, systemClock } from "../time/format.ts";
import { type CompletedScan, recordScanCompleted } from "../webhooks/outbox.ts";
import { quietDataTriggers, wakeDataTriggers } from "../write/data-writer.ts";
import { resolveDomainIds } from "../write/domain-ids.ts";
import { bumpGeneration, forgetGenerations } from "../write/generation.ts";
import type { ScanRecord, UniversityRecord } from "../write/records.ts";
import { refreshLatest } from "../write/refresh-latest.ts";
import { BatchSql } from "./raw-sql.ts";
import { ByteCounter, readSource } from "./readers.ts";
import type { ImportSource } from "./sources.ts";
import { ALL_FIELDS, type ValidRecord, validateRecord } from "./validate.ts";

export interface ImportOptions {
  /** Record a `scan.completed` delivery per active receiver for each newly completed scan (default true). */
  events?: boolean;
  /** Import the valid records and report the others; by default any invalid record aborts everything. */
  skipInvalid?: boolean;
  clock?: Clock;
  /** Aborting rolls the whole import back (Ctrl-C). */
  signal?: AbortSignal;
  /** Called every few thousand records and at the end of each source. */
  onProgress?: (progress: ImportProgress) => void;
  /** Rows per multi-row INSERT (default 500). */
  batchSize?: number;
  /** Most problems kept in the result (default 1000); the rest are only counted. */
  maxIssues?: number;
}

export interface ImportProgress {
  source: string;
  sourceIndex: number;
  /** Bytes of this source read so far (before decompression for `.gz`). */
  bytes: number;
  /** Records read over all sources. */
  records: number;
  rejected: number;
}

export interface ImportIssue {
  source: string;
  line: number;
  message: string;
}

export interface ImportCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

export interface ImportResult {
  /** False when invalid records aborted the import: nothing was written. */
  committed: boolean;
  universities: ImportCounts;
  scans: ImportCounts;
  rejected: number;
  /** Records read (valid and invalid). */
  records: number;
  /** Webhook deliveries recorded. */
  deliveries: number;
  /** Problems as `source:line: message` parts, in file and line order. */
  issues: ImportIssue[];
  /** Problems beyond `maxIssues`, counted only. */
  issuesOmitted: number;
  seconds: number;
  rowsPerSecond: number;
}

/** Formats a problem the way the CLI prints it. */
export const formatIssue = (i: ImportIssue): string => `${i.source}:${i.line}: ${i.message}`;

class Rollback extends Error {}

export class ImportAbortedError extends Error {
  constructor() {
    super("import interrupted; nothing was written");
    this.name = "ImportAbortedError";
  }
}

type Located<T> = { record: T; source: number; line: number };
type ValidScan = ScanRecord & { started_at: string | null; completed_at: string | null };

const SCAN_COLUMNS = ["university_id", "source_id", "status", "started_at", "completed_at", ...SCORE_NAMES];
const FINAL = new Set(["completed", "failed"]);
const sameNumber = (a: unknown, b: unknown) =>
  a === null || a === undefined
    ? b === null || b === undefined
    : b !== null && Math.abs(Number(a) - Number(b)) < 1e-9;

/**
 * Imports universities and scans from NDJSON, CSV or record streams in ONE transaction: universities are
 * keyed by domain (inserted, updated or unchanged), scans by `source_id` (a re-run changes nothing; a pending
 * or running scan may move on; a completed or failed one is final). Streamed with bounded memory: only the
 * domain → id map and the set of touched universities grow with the data. Refreshes `latest_scans`, bumps the
 * generation and records webhook deliveries in the same transaction, so a crash or an abort leaves the
 * database as it was.
 */
export async function importRecords(
  db: DB,
  sources: readonly ImportSource[],
  options: ImportOptions = {},
): Promise<ImportResult> {
  const t0 = performance.now();
  const clock = options.clock ?? systemClock;
  const batchSize = options.batchSize ?? 500;
  const maxIssues = options.maxIssues ?? 1000;
  const events = options.events !== false;
  const result: ImportResult = {
    committed: false,
    universities: { inserted: 0, updated: 0, unchanged: 0 },
    scans: { inserted: 0, updated: 0, unchanged: 0 },
    rejected: 0,
    records: 0,
    deliveries: 0,
    issues: [],
    issuesOmitted: 0,
    seconds: 0,
    rowsPerSecond: 0,
  };
  const finish = () => {
    result.seconds = (performance.now() - t0) / 1000;
    result.rowsPerSecond = result.seconds > 0 ? Math.round(result.records / result.seconds) : result.records;
    result.issues.sort((a, b) => a.source.localeCompare(b.source) || a.line - b.line);
    return result;
  };

  try {
    await db.transaction().execute(async (trx) => {
      await quietDataTriggers(trx);
      const createdAt = sqlTimestamp(clock());
      const ids = new Map<string, number>();
      /** Domains of rejected university records, so their scans say why (bounded). */
      const rejectedDomains = new Map<string, string>();
      const touched = new Set<number>();
      const batchSql = new BatchSql(trx);
      let writing = true;
      let changed = false;
      let unis = new Map<string, Located<UniversityRecord>>();
      let scans = new Map<string, Located<ValidScan>>();
      const receiverIds = events
        ? (await trx.selectFrom("webhook_receivers").select("id").where("active", "=", 1).execute()).map(
            (r) => Number(r.id),
          )
        : [];

      const issue = (source: number, line: number, message: string) => {
        result.rejected++;
        if (!options.skipInvalid) writing = false;
        if (result.issues.length < maxIssues)
          result.issues.push({ source: sources[source]?.name ?? "", line, message });
        else result.issuesOmitted++;
      };

      const flushUniversities = async () => {
        if (unis.size === 0) return;
        const batch = [...unis.values()];
        unis = new Map();
        const existing = new Map(
          (
            await trx
              .selectFrom("universities")
              .select(["id", "domain", "name", "country", "created_at"])
              .where(
                "domain",
                "in",
                batch.map((b) => b.record.domain),
              )
              .execute()
          ).map((r) => [r.domain, r]),
        );
        const inserts: UniversityRecord[] = [];
        for (const { record: u } of batch) {
          const ex = existing.get(u.domain);
          if (!ex) {
            inserts.push(u);
            continue;
          }
          const id = Number(ex.id);
          ids.set(u.domain, id);
          const differs =
            ex.name !== u.name ||
            ex.country !== u.country ||
            (u.created_at !== undefined && u.created_at !== ex.created_at);
          if (!differs) {
            result.universities.unchanged++;
            continue;
          }
          result.universities.updated++;
          if (!writing) continue;
          await trx
            .updateTable("universities")
            .set({
              name: u.name,
              country: u.country,
              search_text: searchKey(`${u.name} ${u.domain}`),
              ...(u.created_at ? { created_at: u.created_at } : {}),
            })
            .where("id", "=", id)
            .execute();
          changed = true;
          if (ex.country !== u.country) touched.add(id);
        }
        if (inserts.length === 0) return;
        result.universities.inserted += inserts.length;
        if (!writing) {
          for (const u of inserts) ids.set(u.domain, -1);
          return;
        }
        const rows = await trx
          .insertInto("universities")
          .values(
            inserts.map((u) => ({
              domain: u.domain,
              name: u.name,
              country: u.country,
              created_at: u.created_at ?? createdAt,
              search_text: searchKey(`${u.name} ${u.domain}`),
            })),
          )
          .returning(["id", "domain"])
          .execute();
        for (const r of rows) ids.set(r.domain, Number(r.id));
        changed = true;
      };

      const flushScans = async () => {
        if (scans.size === 0) return;
        await flushUniversities();
        let batch = [...scans.values()];
        scans = new Map();
        await resolveDomainIds(
          trx,
          ids,
          batch.map((b) => b.record.domain),
        );
        batch = batch.filter((b) => {
          if (ids.has(b.record.domain)) return true;
          const why = rejectedDomains.get(b.record.domain);
          issue(
            b.source,
            b.line,
            why
              ? `scan for domain ${b.record.domain}, whose university record was rejected (${why})`
              : `scan for domain ${b.record.domain}, which is neither stored nor imported before this line`,
          );
          return false;
        });
        // After an invalid record (without --skip-invalid) nothing more is written: later records are only checked.
        if (batch.length === 0 || !writing) return;
        const completed: CompletedScan[] = [];
        // New scans go in at once; those whose source_id is already stored are left to the comparison below.
        const params: unknown[] = [];
        for (const { record: s } of batch) {
          params.push(ids.get(s.domain), s.source_id, s.status, s.started_at, s.completed_at);
          for (const n of SCORE_NAMES) params.push(s[n] ?? null);
        }
        const inserted = await batchSql.insert<{ id: number; source_id: string }>(
          "scans",
          SCAN_COLUMNS,
          batch.length,
          params,
          ["id", "source_id"],
          "source_id",
        );
        if (inserted.length > 0) changed = true;
        result.scans.inserted += inserted.length;
        const idOf = new Map(inserted.map((r) => [r.source_id, Number(r.id)]));
        const stored: Located<ValidScan>[] = [];
        for (const located of batch) {
          const s = located.record;
          const id = idOf.get(s.source_id);
          if (id === undefined) stored.push(located);
          else if (s.status === "completed") {
            const universityId = ids.get(s.domain) as number;
            touched.add(universityId);
            completed.push(completedScan(id, universityId, s));
          }
        }
        const existing = new Map(
          stored.length === 0
            ? []
            : (
                await trx
                  .selectFrom("scans")
                  .selectAll()
                  .where(
                    "source_id",
                    "in",
                    stored.map((b) => b.record.source_id),
                  )
                  .execute()
              ).map((r) => [r.source_id as string, r]),
        );
        for (const located of stored) {
          const s = located.record;
          const universityId = ids.get(s.domain) as number;
          const ex = existing.get(s.source_id);
          if (!ex) continue;
          const same =
            ex.status === s.status &&
            Number(ex.university_id) === universityId &&
            ex.started_at === s.started_at &&
            ex.completed_at === s.completed_at &&
            SCORE_NAMES.every((n) => sameNumber(ex[n], s[n]));
          if (same) {
            result.scans.unchanged++;
            continue;
          }
          if (FINAL.has(ex.status)) {
            issue(
              located.source,
              located.line,
              `scan ${s.source_id} is already stored as ${ex.status} with other values; a completed or failed scan does not change (give a new scan its own source_id)`,
            );
            continue;
          }
          result.scans.updated++;
          const row: Record<string, unknown> = {
            university_id: universityId,
            status: s.status,
            started_at: s.started_at,
            completed_at: s.completed_at,
          };
          for (const n of SCORE_NAMES) row[n] = s[n] ?? null;
          await trx.updateTable("scans").set(row).where("id", "=", ex.id).execute();
          changed = true;
          if (Number(ex.university_id) !== universityId) touched.add(Number(ex.university_id));
          if (s.status === "completed") {
            touched.add(universityId);
            completed.push(completedScan(Number(ex.id), universityId, s));
          }
        }
        if (writing && events && completed.length > 0) {
          result.deliveries += await recordScanCompleted(trx, completed, { clock, receiverIds });
        }
      };

      let lastProgress = 0;
      for (let si = 0; si < sources.length; si++) {
        const source = sources[si] as ImportSource;
        const counter = new ByteCounter();
        const progress = () =>
          options.onProgress?.({
            source: source.name,
            sourceIndex: si,
            bytes: counter.bytes,
            records: result.records,
            rejected: result.rejected,
          });
        let headerSeen = !("format" in source) || source.format !== "csv";
        let headerBroken = false;
        for await (const raw of readSource(source, counter)) {
          if (options.signal?.aborted) throw new ImportAbortedError();
          if (raw.error !== undefined) {
            if (!raw.fatal || raw.line > 0) result.records++;
            issue(si, raw.line, raw.error);
            if (raw.fatal) break;
            continue;
          }
          if (!headerSeen) {
            headerSeen = true;
            const problem = headerProblem(raw.value as string[]);
            if (problem) {
              headerBroken = true;
              issue(si, raw.line, `${problem}; every row of this file is ignored`);
            }
            continue;
          }
          result.records++;
          if (headerBroken) {
            result.rejected++;
            continue;
          }
          const checked = validateRecord(raw.value, raw.csv);
          if (!checked.ok) {
            issue(si, raw.line, checked.errors.join("; "));
            if (checked.domain && rejectedDomains.size < 100_000 && !ids.has(checked.domain)) {
              rejectedDomains.set(checked.domain, `line ${raw.line}`);
            }
          } else {
            const record: ValidRecord = checked.record;
            if (record.type === "university") {
              if (unis.has(record.domain)) await flushUniversities();
              unis.set(record.domain, { record, source: si, line: raw.line });
              if (unis.size >= batchSize) await flushUniversities();
            } else {
              if (scans.has(record.source_id)) await flushScans();
              scans.set(record.source_id, { record: record as ValidScan, source: si, line: raw.line });
              if (scans.size >= batchSize) await flushScans();
            }
          }
          if (result.records - lastProgress >= 5000) {
            lastProgress = result.records;
            progress();
          }
        }
        await flushUniversities();
        await flushScans();
        progress();
      }
      if (result.rejected > 0 && !options.skipInvalid) throw new Rollback();
      if (changed) {
        await refreshLatest(trx, touched);
        await bumpGeneration(trx);
      }
      await wakeDataTriggers(trx);
    });
    forgetGenerations();
    result.committed = true;
  } catch (e) {
    if (!(e instanceof Rollback)) throw e;
    result.universities = { inserted: 0, updated: 0, unchanged: 0 };
    result.scans = { inserted: 0, updated: 0, unchanged: 0 };
    result.deliveries = 0;
  }
  return finish();
}

/** What is wrong with a CSV header: unknown columns, or no `type` column. */
function headerProblem(columns: readonly string[]): string | null {
  const unknown = columns.filter((c) => !ALL_FIELDS.has(c));
  const problems: string[] = [];
  if (unknown.length > 0) {
    problems.push(
      `unknown column${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => JSON.stringify(n)).join(", ")}`,
    );
  }
  if (!columns.includes("type")) problems.push("missing required column type");
  return problems.length > 0 ? problems.join("; ") : null;
}

function completedScan(scanId: number, universityId: number, s: ValidScan): CompletedScan {
  return {
    scan_id: scanId,
    university_id: universityId,
    domain: s.domain,
    overall_score: s.overall_score ?? null,
    completed_at: s.completed_at as string,
  };
}
