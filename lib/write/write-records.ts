import { forgetGenerations } from "../db/generation.ts";
import type { DB } from "../schema/database.ts";
import { type Clock, systemClock } from "../time/format.ts";
import { type IngestCounts, IngestWriter } from "./ingest-writer.ts";
import type { IngestRecord } from "./records.ts";
import { validateRecord } from "./validate-record.ts";

export interface WriteSummary {
  /** University records written (inserted, updated or unchanged). */
  universities: number;
  /** Scan records written (inserted, moved on or unchanged). */
  scans: number;
  /** The same, in detail. */
  counts: { universities: IngestCounts; scans: IngestCounts };
  /** Webhook deliveries recorded. */
  deliveries: number;
}

/** Records `writeRecords` refused: nothing was written. `problems` are `record N: what is wrong`, N from 1. */
export class IngestRejectedError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(
      `${problems.length} record${problems.length === 1 ? "" : "s"} refused; nothing was written: ${problems.slice(0, 5).join("; ")}`,
    );
    this.name = "IngestRejectedError";
  }
}

/**
 * Writes records (from the seed generator, an embedder or the scanner) in one transaction through the ingest
 * writer, with the import's rules: every record validated, universities keyed by domain, scans by source id
 * (a pending or running scan moves on; a completed or failed one is final). Any invalid record throws
 * `IngestRejectedError` and nothing is written.
 */
export async function writeRecords(
  db: DB,
  records: Iterable<IngestRecord> | AsyncIterable<IngestRecord>,
  options: {
    /** The time of the write (`created_at` of new universities, webhook timestamps); default now. */
    now?: Date;
    /** Record webhook deliveries for newly completed scans (default true). */
    events?: boolean;
    clock?: Clock;
    /** Rows per multi-row INSERT (default 500). */
    batchSize?: number;
    /** Derive missing composites and `overall_score` from the sub-scores, as the import does (default true). */
    deriveScores?: boolean;
    /** Completed scans may be re-scored (`IngestPolicy.rescore`). */
    rescore?: boolean;
  } = {},
): Promise<WriteSummary> {
  const now = options.now;
  const clock = options.clock ?? (now ? () => now : systemClock);
  const problems: string[] = [];
  return db
    .transaction()
    .execute(async (trx) => {
      const writer = await IngestWriter.open(
        trx,
        { events: options.events, clock, batchSize: options.batchSize, rescore: options.rescore },
        (at, message) => problems.push(`record ${at.line}: ${message}`),
      );
      let line = 0;
      for await (const record of records) {
        const at = { source: 0, line: ++line };
        const checked = validateRecord(record, false, options);
        if (checked.ok) await writer.add(checked.record, at);
        else writer.reject(at, checked.errors.join("; "), checked.domain);
      }
      await writer.finish();
      if (problems.length > 0) throw new IngestRejectedError(problems);
      const { universities, scans } = writer;
      const total = (c: IngestCounts) => c.inserted + c.updated + c.unchanged;
      return {
        universities: total(universities),
        scans: total(scans),
        counts: { universities, scans },
        deliveries: writer.deliveries,
      };
    })
    .finally(forgetGenerations);
}
