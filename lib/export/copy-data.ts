import type { Insertable } from "kysely";
import { bumpGeneration } from "../db/generation.ts";
import type { Database, DB } from "../schema/database.ts";
import { SCORE_NAMES } from "../scores/catalogue.ts";
import { quietDataTriggers, wakeDataTriggers } from "../write/data-writer.ts";
import { refreshLatest } from "../write/refresh-latest.ts";
import { type ExportSelection, scanBatches, universityBatches } from "./rows.ts";

export interface CopyCounts {
  universities: number;
  scans: number;
}

/** Rows per INSERT: 500 scans of 45 columns stay below SQLite's limit of bound parameters. */
const ROWS_PER_INSERT = 500;

/**
 * Copies the data of `source` (its selected universities, their scans and the scans' evidence, ids kept) into
 * `target`, a new and migrated SQLite database, in one transaction, then builds `target`'s `latest_scans` from
 * what was copied. Nothing else is copied: no API keys, audit log, access state, webhook receivers (with their
 * secrets) or deliveries, scheduler claims or probes. `facts` are stored in `target`'s `unirank_meta` (how to
 * cite the copy). Run it inside `inReadSnapshot(source, …)` for a consistent copy.
 */
export async function copyData(
  source: DB,
  target: DB,
  selection: ExportSelection,
  facts: Record<string, string>,
  onProgress?: (counts: CopyCounts) => void,
): Promise<CopyCounts> {
  const counts: CopyCounts = { universities: 0, scans: 0 };
  await target.transaction().execute(async (trx) => {
    await quietDataTriggers(trx);
    for await (const batch of universityBatches(source, selection, ROWS_PER_INSERT)) {
      await trx.insertInto("universities").values(batch).execute();
      counts.universities += batch.length;
      onProgress?.(counts);
    }
    for await (const batch of scanBatches(source, selection, { evidence: true, size: ROWS_PER_INSERT })) {
      const scans = batch.map((s) => {
        const row: Record<string, unknown> = {
          id: s.id,
          university_id: s.university_id,
          source_id: s.source_id,
          status: s.status,
          started_at: s.started_at,
          completed_at: s.completed_at,
          profile: s.profile,
          rubric_version: s.rubric_version,
        };
        for (const name of SCORE_NAMES) row[name] = s[name];
        return row as Insertable<Database["scans"]>;
      });
      await trx.insertInto("scans").values(scans).execute();
      const evidence = batch.flatMap((s) => (s.evidence ? [{ scan_id: s.id, evidence: s.evidence }] : []));
      if (evidence.length > 0) await trx.insertInto("scan_evidence").values(evidence).execute();
      counts.scans += batch.length;
      onProgress?.(counts);
    }
    await refreshLatest(trx);
    await bumpGeneration(trx);
    const entries = Object.entries(facts).map(([key, value]) => ({ key, value }));
    if (entries.length > 0) await trx.insertInto("unirank_meta").values(entries).execute();
    await wakeDataTriggers(trx);
  });
  return counts;
}
