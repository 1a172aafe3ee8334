import { sql } from "kysely";
import { capabilitiesOf } from "../../db/capabilities.ts";
import type { DB } from "../../schema/database.ts";
import { isoTimestamp } from "../../time/format.ts";

/** A university this server has leased for one scan attempt. */
export interface ClaimedScan {
  university_id: number;
  domain: string;
  name: string;
  country: string;
  /** Source id the attempt's scan is stored under. */
  attempt_id: string;
  started_at: string;
}

export interface DueRule {
  now: Date;
  /** A university whose latest completed scan is older than this is due. */
  everyMs: number;
  /** A failed attempt is retried this long after it started. */
  retryMs: number;
}

/**
 * Gives every university its claims row (new universities since the last call), but those under the reserved
 * names `.example`, `.invalid` and `.localhost` (RFC 2606, the synthetic demo's universities): never scanned.
 */
export async function ensureClaimRows(db: DB): Promise<void> {
  await sql`insert into scan_claims (university_id)
    select u.id from universities u
    where not exists (select 1 from scan_claims c where c.university_id = u.id)
      and u.domain not like '%.example' and u.domain not like '%.invalid' and u.domain not like '%.localhost'
    on conflict (university_id) do nothing`.execute(db);
}

/**
 * The due condition, on `scan_claims c` joined to `latest_scans l`: free and either never completed or completed
 * before `every` ago; a university whose last attempt failed waits `retry`. An expired lease is not due until
 * `closeExpiredLeases` has closed its attempt (as failed, so it waits `retry` too).
 */
function dueWhere(rule: DueRule) {
  const cutoff = isoTimestamp(new Date(rule.now.getTime() - rule.everyMs));
  const retry = isoTimestamp(new Date(rule.now.getTime() - rule.retryMs));
  return sql`(l.completed_at is null or l.completed_at <= ${cutoff})
    and c.owner is null and (c.last_status is null or c.last_status = 'completed' or c.last_attempt_at is null
      or c.last_attempt_at <= ${retry})`;
}

/** How many universities are due now (the backlog). */
export async function countDue(db: DB, rule: DueRule): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from scan_claims c
    left join latest_scans l on l.university_id = c.university_id
    where ${dueWhere(rule)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Leases up to `limit` due universities to `owner` until `now + leaseMs`: never-scanned first, then the oldest
 * latest scan, ties by id. Safe with several servers on one database: the UPDATE takes a row only while it is
 * still free or expired (and PostgreSQL picks candidates `FOR UPDATE SKIP LOCKED`), so each is claimed once.
 */
export async function claimDueScans(
  db: DB,
  options: DueRule & { owner: string; limit: number; leaseMs: number; newAttemptId: () => string },
): Promise<ClaimedScan[]> {
  if (options.limit <= 0) return [];
  const { rowLocks } = capabilitiesOf(db);
  const now = isoTimestamp(options.now);
  const leaseUntil = isoTimestamp(new Date(options.now.getTime() + options.leaseMs));
  return db.transaction().execute(async (trx) => {
    const { rows: candidates } = await sql<{
      university_id: number;
      domain: string;
      name: string;
      country: string;
    }>`select c.university_id, u.domain, u.name, u.country
      from scan_claims c
      join universities u on u.id = c.university_id
      left join latest_scans l on l.university_id = c.university_id
      where ${dueWhere(options)}
      order by case when l.completed_at is null then 0 else 1 end, l.completed_at, c.university_id
      limit ${options.limit}
      ${rowLocks ? sql`for update of c skip locked` : sql``}`.execute(trx);
    const claimed: ClaimedScan[] = [];
    for (const c of candidates) {
      const attemptId = options.newAttemptId();
      const won = await trx
        .updateTable("scan_claims")
        .set({ owner: options.owner, lease_until: leaseUntil, attempt_id: attemptId, started_at: now })
        .where("university_id", "=", Number(c.university_id))
        .where("owner", "is", null)
        .returning("university_id")
        .execute();
      if (won.length === 0) continue;
      claimed.push({
        university_id: Number(c.university_id),
        domain: c.domain,
        name: c.name,
        country: c.country,
        attempt_id: attemptId,
        started_at: now,
      });
    }
    return claimed;
  });
}

/** Moves the leases of this server's attempts in progress to `now + leaseMs`. */
export async function renewLeases(
  db: DB,
  owner: string,
  attemptIds: readonly string[],
  now: Date,
  leaseMs: number,
): Promise<void> {
  if (attemptIds.length === 0) return;
  await db
    .updateTable("scan_claims")
    .set({ lease_until: isoTimestamp(new Date(now.getTime() + leaseMs)) })
    .where("owner", "=", owner)
    .where("attempt_id", "in", [...attemptIds])
    .execute();
}

/**
 * Frees the claim of one attempt with its outcome (only while the attempt still holds it; with `expiredBy`, only
 * once its lease has run out at that time). The last attempt's time, status and error are set together, from
 * this one attempt. Resolves with whether the claim was freed.
 */
export async function finishClaim(
  db: DB,
  attemptId: string,
  outcome: { status: "completed" | "failed" | "released"; error?: string; expiredBy?: Date },
): Promise<boolean> {
  const free = { owner: null, lease_until: null, attempt_id: null, started_at: null };
  let q = db.updateTable("scan_claims").where("attempt_id", "=", attemptId);
  if (outcome.expiredBy) q = q.where("lease_until", "<=", isoTimestamp(outcome.expiredBy));
  const status = outcome.status;
  const done =
    status === "released"
      ? // Given back untried: due again at once, as if this attempt had never started.
        await q.set({ ...free, last_attempt_at: null }).executeTakeFirst()
      : await q
          .set((eb) => ({
            ...free,
            last_attempt_at: eb.ref("started_at"),
            last_status: status,
            last_error: outcome.error ?? null,
          }))
          .executeTakeFirst();
  return Number(done.numUpdatedRows) > 0;
}

/** Attempts whose lease ran out by `now` (their server stopped without storing them), oldest first. */
export async function expiredLeases(
  db: DB,
  now: Date,
): Promise<{ attempt_id: string; owner: string; started_at: string | null; domain: string }[]> {
  const rows = await db
    .selectFrom("scan_claims as c")
    .innerJoin("universities as u", "u.id", "c.university_id")
    .select(["c.attempt_id", "c.owner", "c.started_at", "u.domain"])
    .where("c.owner", "is not", null)
    .where("c.lease_until", "<=", isoTimestamp(now))
    .orderBy("c.lease_until")
    .execute();
  return rows.map((r) => ({
    attempt_id: r.attempt_id as string,
    owner: r.owner as string,
    started_at: r.started_at,
    domain: r.domain,
  }));
}
