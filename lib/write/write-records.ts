import type { DB } from "../schema/database.ts";
import { SCORE_NAMES } from "../scores/catalogue.ts";
import { searchKey } from "../text/search-key.ts";
import { type Clock, sqlTimestamp } from "../time/format.ts";
import { type CompletedScan, recordScanCompleted } from "../webhooks/outbox.ts";
import { quietDataTriggers, wakeDataTriggers } from "./data-writer.ts";
import { resolveDomainIds } from "./domain-ids.ts";
import { bumpGeneration, forgetGenerations } from "./generation.ts";
import type { IngestRecord, ScanRecord, UniversityRecord } from "./records.ts";
import { refreshLatest } from "./refresh-latest.ts";

export interface WriteSummary {
  universities: number;
  scans: number;
}

const BATCH = 200;

/**
 * Writes trusted records (generated, or already validated) in one transaction: universities upserted by
 * domain, scans inserted by source id (existing ones left alone), then the latest scans refreshed.
 */
export async function writeRecords(
  db: DB,
  records: Iterable<IngestRecord> | AsyncIterable<IngestRecord>,
  options: {
    now?: Date;
    /** Record webhook deliveries for new completed scans (default true). */
    events?: boolean;
    clock?: Clock;
  } = {},
): Promise<WriteSummary> {
  const createdAt = sqlTimestamp(options.now ?? new Date());
  const events = options.events !== false;
  return db
    .transaction()
    .execute(async (trx) => {
      await quietDataTriggers(trx);
      const ids = new Map<string, number>();
      const touched = new Set<number>();
      let unis: UniversityRecord[] = [];
      let scans: ScanRecord[] = [];
      const summary: WriteSummary = { universities: 0, scans: 0 };

      const flushUniversities = async () => {
        if (unis.length === 0) return;
        const rows = unis.map((u) => ({
          domain: u.domain,
          name: u.name,
          country: u.country.toUpperCase(),
          created_at: u.created_at ?? createdAt,
          search_text: searchKey(`${u.name} ${u.domain}`),
        }));
        const inserted = await trx
          .insertInto("universities")
          .values(rows)
          .onConflict((oc) =>
            oc.column("domain").doUpdateSet((eb) => ({
              name: eb.ref("excluded.name"),
              country: eb.ref("excluded.country"),
              search_text: eb.ref("excluded.search_text"),
            })),
          )
          .returning(["id", "domain"])
          .execute();
        // Touched too: an upsert may change the country that latest_scans copies for country rankings.
        for (const r of inserted) {
          ids.set(r.domain, Number(r.id));
          touched.add(Number(r.id));
        }
        summary.universities += unis.length;
        unis = [];
      };
      const flushScans = async () => {
        if (scans.length === 0) return;
        await flushUniversities();
        await resolveDomainIds(
          trx,
          ids,
          scans.map((s) => s.domain),
        );
        const rows = scans.map((s) => {
          const universityId = ids.get(s.domain);
          if (universityId === undefined) throw new Error(`scan ${s.source_id}: unknown domain ${s.domain}`);
          touched.add(universityId);
          const row: Record<string, unknown> = {
            university_id: universityId,
            source_id: s.source_id,
            status: s.status,
            started_at: s.started_at ?? null,
            completed_at: s.completed_at ?? null,
          };
          for (const name of SCORE_NAMES) row[name] = s.status === "completed" ? (s[name] ?? null) : null;
          return row;
        });
        const inserted = await trx
          .insertInto("scans")
          // biome-ignore lint/suspicious/noExplicitAny: score columns are dynamic
          .values(rows as any)
          .onConflict((oc) => oc.column("source_id").doNothing())
          .returning(["id", "source_id"])
          .execute();
        if (events) {
          // The outbox: each newly completed scan gets its webhook deliveries in this same transaction.
          const bySource = new Map(scans.map((s) => [s.source_id, s]));
          const completed: CompletedScan[] = [];
          for (const r of inserted) {
            const s = bySource.get(r.source_id as string);
            if (s?.status !== "completed" || !s.completed_at) continue;
            const universityId = ids.get(s.domain) as number;
            completed.push({
              scan_id: Number(r.id),
              university_id: universityId,
              domain: s.domain,
              overall_score: s.overall_score ?? null,
              completed_at: s.completed_at,
            });
          }
          await recordScanCompleted(trx, completed, { clock: options.clock });
        }
        summary.scans += scans.length;
        scans = [];
      };

      for await (const rec of records) {
        if (rec.type === "university") {
          unis.push(rec);
          if (unis.length >= BATCH) await flushUniversities();
        } else {
          scans.push(rec);
          if (scans.length >= BATCH) await flushScans();
        }
      }
      await flushUniversities();
      await flushScans();
      await refreshLatest(trx, touched);
      await bumpGeneration(trx);
      await wakeDataTriggers(trx);
      return summary;
    })
    .finally(forgetGenerations);
}
