import type { DB } from "../../schema/database.ts";
import { type Clock, isoTimestamp, systemClock } from "../../time/format.ts";
import { recordScanOutcome } from "../record-scan.ts";
import { failedOutcome } from "../scan-outcome.ts";
import { expiredLeases, finishClaim } from "./claims.ts";

/** An attempt closed because its server stopped without storing it. */
export interface ClosedAttempt {
  attempt_id: string;
  domain: string;
  owner: string;
  reason: string;
}

/** The failure reason of an attempt whose lease ran out. */
export const leaseExpiredReason = (owner: string): string =>
  `lease expired: ${owner} stopped before finishing the scan`;

/**
 * Closes the attempts whose lease ran out by `now` (their server was killed or lost the database): each one's scan
 * is stored as failed through `recordScanOutcome`, the reason as its evidence, and its claim is freed with that
 * outcome (the university is retried like any failed attempt). `spare` is a live owner whose attempts are left
 * alone. Safe with several processes at once: a scan already final is not changed, and a claim is freed once.
 */
export async function closeExpiredLeases(
  db: DB,
  options: { now?: Date; clock?: Clock; spare?: string } = {},
): Promise<ClosedAttempt[]> {
  const clock = options.clock ?? systemClock;
  const now = options.now ?? clock();
  const closed: ClosedAttempt[] = [];
  for (const lease of await expiredLeases(db, now)) {
    if (lease.owner === options.spare) continue;
    const reason = leaseExpiredReason(lease.owner);
    const startedAt = lease.started_at ?? isoTimestamp(now);
    const attempt = { source_id: lease.attempt_id, domain: lease.domain };
    // Stored before the claim is freed: a failure here leaves the lease expired, to be closed on the next call.
    // A scan its server stored meanwhile is final and stays as it is.
    try {
      await recordScanOutcome(db, attempt, failedOutcome(reason, startedAt, isoTimestamp(now)), {
        clock,
        now,
      });
    } catch (e) {
      if (!(await isFinal(db, lease.attempt_id))) throw e;
    }
    if (await finishClaim(db, lease.attempt_id, { status: "failed", error: reason, expiredBy: now }))
      closed.push({ attempt_id: lease.attempt_id, domain: lease.domain, owner: lease.owner, reason });
  }
  return closed;
}

async function isFinal(db: DB, sourceId: string): Promise<boolean> {
  const row = await db
    .selectFrom("scans")
    .select("status")
    .where("source_id", "=", sourceId)
    .executeTakeFirst();
  return row?.status === "completed" || row?.status === "failed";
}
