import { forgetGenerations } from "../db/generation.ts";
import type { DB } from "../schema/database.ts";
import { type Clock, systemClock } from "../time/format.ts";
import { type IngestCounts, IngestWriter } from "../write/ingest-writer.ts";
import { ALL_FIELDS, validateRecord } from "../write/validate-record.ts";
import { ByteCounter, readSource } from "./readers.ts";
import type { ImportSource } from "./sources.ts";

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

export type ImportCounts = IngestCounts;

export interface ImportResult {
  /** False when invalid records or an unreadable source aborted the import: nothing was written. */
  committed: boolean;
  /**
   * The source that could not be read to its end (a corrupt or truncated `.gz`, a failing stream), where; its
   * issue is in `issues` too. Nothing is written then, `skipInvalid` or not: what was read before the failure
   * cannot be trusted.
   */
  unreadable: ImportIssue | null;
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
  const maxIssues = options.maxIssues ?? 1000;
  const result: ImportResult = {
    committed: false,
    unreadable: null,
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
      const writer = await IngestWriter.open(
        trx,
        { events: options.events, skipInvalid: options.skipInvalid, clock, batchSize: options.batchSize },
        (at, message) => {
          result.rejected++;
          if (result.issues.length < maxIssues)
            result.issues.push({ source: sources[at.source]?.name ?? "", line: at.line, message });
          else result.issuesOmitted++;
        },
      );
      const issue = (source: number, line: number, message: string, domain?: string) =>
        writer.reject({ source, line }, message, domain);

      let lastProgress = 0;
      for (let si = 0; si < sources.length; si++) {
        const source = sources[si] as ImportSource;
        const counter = new ByteCounter();
        const progress = () =>
          options.onProgress?.({
            source: source.name,
            sourceIndex: si,
            bytes:
              "storedBytesRead" in source && source.storedBytesRead
                ? source.storedBytesRead()
                : counter.bytes,
            records: result.records,
            rejected: result.rejected,
          });
        let headerSeen = !("format" in source) || source.format !== "csv";
        let headerBroken = false;
        for await (const raw of readSource(source, counter)) {
          if (options.signal?.aborted) throw new ImportAbortedError();
          if (raw.error !== undefined) {
            if (raw.unreadable) {
              result.unreadable = { source: source.name, line: raw.line, message: raw.error };
              result.rejected++;
              result.issues.push(result.unreadable);
              throw new Rollback();
            }
            if (!raw.fatal) result.records++;
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
          const checked = validateRecord(raw.value, raw.csv, { source: raw.text });
          if (!checked.ok) {
            issue(si, raw.line, checked.errors.join("; "), checked.domain);
          } else await writer.add(checked.record, { source: si, line: raw.line });
          if (result.records - lastProgress >= 5000) {
            lastProgress = result.records;
            progress();
          }
        }
        progress();
      }
      await writer.finish();
      // A signal heard while the writer finished (its refresh lets the event loop run) still undoes everything.
      if (options.signal?.aborted) throw new ImportAbortedError();
      result.universities = writer.universities;
      result.scans = writer.scans;
      result.deliveries = writer.deliveries;
      if (result.rejected > 0 && !options.skipInvalid) throw new Rollback();
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
