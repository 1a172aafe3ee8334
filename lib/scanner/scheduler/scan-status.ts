import type { DB } from "../../schema/database.ts";
import { isoTimestamp, parseTimestamp } from "../../time/format.ts";
import { countDue, type DueRule, ensureClaimRows } from "./claims.ts";

export interface ScanStatusReport {
  /** The period the counts cover: the scan interval up to now. */
  since: string;
  due: number;
  running: { domain: string; owner: string; started_at: string | null; lease_until: string | null }[];
  completed: number;
  failed: number;
  /** When the next university falls due: now when some are, null when none ever will (no universities). */
  next_due: string | null;
  last_failures: { domain: string; at: string | null; reason: string | null }[];
}

const count = async (db: DB, status: "completed" | "failed", since: string) =>
  Number(
    (
      await db
        .selectFrom("scans")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("status", "=", status)
        .where("completed_at", ">=", since)
        .executeTakeFirst()
    )?.n ?? 0,
  );

/** The scheduler's state as the database holds it, across every server sharing it. */
export async function scanStatus(db: DB, rule: DueRule & { failures?: number }): Promise<ScanStatusReport> {
  await ensureClaimRows(db);
  const now = isoTimestamp(rule.now);
  const since = isoTimestamp(new Date(rule.now.getTime() - rule.everyMs));
  const due = await countDue(db, rule);
  const running = await db
    .selectFrom("scan_claims as c")
    .innerJoin("universities as u", "u.id", "c.university_id")
    .select(["u.domain", "c.owner", "c.started_at", "c.lease_until"])
    .where("c.owner", "is not", null)
    .where("c.lease_until", ">", now)
    .orderBy("c.started_at")
    .execute();
  const lastFailures = await db
    .selectFrom("scan_claims as c")
    .innerJoin("universities as u", "u.id", "c.university_id")
    .select(["u.domain", "c.last_attempt_at as at", "c.last_error as reason"])
    .where("c.last_status", "=", "failed")
    .orderBy("c.last_attempt_at", "desc")
    .limit(rule.failures ?? 10)
    .execute();
  let next: number | null = due > 0 ? rule.now.getTime() : null;
  if (next === null) {
    const oldest = await db
      .selectFrom("latest_scans")
      .select((eb) => eb.fn.min("completed_at").as("at"))
      .executeTakeFirst();
    const retry = await db
      .selectFrom("scan_claims")
      .select((eb) => eb.fn.min("last_attempt_at").as("at"))
      .where("last_status", "=", "failed")
      .where("owner", "is", null)
      .executeTakeFirst();
    const candidates = [
      oldest?.at ? (parseTimestamp(String(oldest.at))?.getTime() ?? 0) + rule.everyMs : null,
      retry?.at ? (parseTimestamp(String(retry.at))?.getTime() ?? 0) + rule.retryMs : null,
    ].filter((t): t is number => t !== null);
    next = candidates.length ? Math.max(rule.now.getTime(), Math.min(...candidates)) : null;
  }
  return {
    since,
    due,
    running: running.map((r) => ({
      domain: r.domain,
      owner: r.owner as string,
      started_at: r.started_at,
      lease_until: r.lease_until,
    })),
    completed: await count(db, "completed", since),
    failed: await count(db, "failed", since),
    next_due: next === null ? null : isoTimestamp(new Date(next)),
    last_failures: lastFailures,
  };
}
