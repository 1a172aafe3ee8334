import { sql } from "kysely";
import { capabilitiesOf } from "../../db/capabilities.ts";
import type { DB } from "../../schema/database.ts";
import { isoTimestamp } from "../../time/format.ts";
import type { Availability } from "../observations.ts";

/** The outcome of one availability probe (a HEAD of the home page). */
export interface ProbeResult {
  /** An HTTP answer with a status below 500 within the timeout. */
  answered: boolean;
  status_code?: number;
  error?: string;
}

export interface ProbeTarget {
  university_id: number;
  domain: string;
}

/**
 * Takes up to `limit` universities whose probe is due (`next_probe_at` unset or past), the longest waiting first,
 * and moves their next probe to `now + everyMs`. A university is taken by one server only (conditional UPDATE).
 */
export async function claimDueProbes(
  db: DB,
  options: { now: Date; everyMs: number; limit: number },
): Promise<ProbeTarget[]> {
  if (options.limit <= 0) return [];
  const now = isoTimestamp(options.now);
  const next = isoTimestamp(new Date(options.now.getTime() + options.everyMs));
  const { rowLocks } = capabilitiesOf(db);
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<ProbeTarget>`select c.university_id, u.domain from scan_claims c
      join universities u on u.id = c.university_id
      where c.next_probe_at is null or c.next_probe_at <= ${now}
      order by case when c.next_probe_at is null then 0 else 1 end, c.next_probe_at, c.university_id
      limit ${options.limit}
      ${rowLocks ? sql`for update of c skip locked` : sql``}`.execute(trx);
    if (rows.length === 0) return [];
    const won = await trx
      .updateTable("scan_claims")
      .set({ next_probe_at: next })
      .where(
        "university_id",
        "in",
        rows.map((r) => Number(r.university_id)),
      )
      .where((eb) => eb.or([eb("next_probe_at", "is", null), eb("next_probe_at", "<=", now)]))
      .returning("university_id")
      .execute();
    const ids = new Set(won.map((w) => Number(w.university_id)));
    return rows
      .filter((r) => ids.has(Number(r.university_id)))
      .map((r) => ({ university_id: Number(r.university_id), domain: r.domain }));
  });
}

/** Stores probe outcomes. */
export async function recordProbes(
  db: DB,
  results: readonly { university_id: number; probed_at: Date; result: ProbeResult }[],
): Promise<void> {
  if (results.length === 0) return;
  await db
    .insertInto("availability_probes")
    .values(
      results.map((r) => ({
        university_id: r.university_id,
        probed_at: isoTimestamp(r.probed_at),
        answered: r.result.answered ? 1 : 0,
        status_code: r.result.status_code ?? null,
        error: r.result.error?.slice(0, 500) ?? null,
      })),
    )
    .execute();
}

/** The availability of `[since, until)` (probes answered and made), the scan period before a scan starts. */
export async function availabilityBetween(
  db: DB,
  universityId: number,
  since: Date,
  until: Date,
): Promise<Availability> {
  const row = await db
    .selectFrom("availability_probes")
    .select((eb) => [
      eb.fn.countAll().as("total"),
      eb.fn.coalesce(eb.fn.sum("answered"), sql<number>`0`).as("answered"),
    ])
    .where("university_id", "=", universityId)
    .where("probed_at", ">=", isoTimestamp(since))
    .where("probed_at", "<", isoTimestamp(until))
    .executeTakeFirst();
  return { answered: Number(row?.answered ?? 0), total: Number(row?.total ?? 0) };
}

/** Deletes probes made before `before` (older than any scan period still read). */
export async function pruneProbes(db: DB, before: Date): Promise<void> {
  await db.deleteFrom("availability_probes").where("probed_at", "<", isoTimestamp(before)).execute();
}
