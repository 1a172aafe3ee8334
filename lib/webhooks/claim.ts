import { sql } from "kysely";
import { capabilitiesOf } from "../db/capabilities.ts";
import type { DB } from "../schema/database.ts";
import { isoTimestamp } from "../time/format.ts";
import { retryDelayMs } from "./schedule.ts";

/** A delivery leased to one worker, with what it needs to send it. */
export interface ClaimedDelivery {
  id: number;
  uuid: string;
  receiver_id: number;
  url: string;
  secret: string;
  event: string;
  payload: string;
  /** Attempt number of this claim (1 for the first). */
  attempt: number;
  failures: number;
}

export interface ClaimOptions {
  now: Date;
  /** How many at most. */
  limit: number;
  /** Lease length: past it, another worker may claim the delivery again (its sender is presumed dead). */
  leaseMs: number;
  worker: string;
  /** Receivers to leave alone (this worker already has as many of theirs in flight as it allows). */
  excludeReceivers?: readonly number[];
  /** Most deliveries of one receiver in this claim. */
  perReceiver?: number;
}

/**
 * Leases due deliveries of active receivers to `worker`. Safe with several workers and several servers on one
 * database: the conditional UPDATE only takes rows whose lease is free or expired (and on PostgreSQL the
 * candidates are picked with `FOR UPDATE SKIP LOCKED`, so workers do not wait on each other).
 */
export async function claimDeliveries(db: DB, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const { rowLocks } = capabilitiesOf(db);
  const now = isoTimestamp(options.now);
  const leaseUntil = isoTimestamp(new Date(options.now.getTime() + options.leaseMs));
  const claim = async (trx: DB) => {
    let q = trx
      .selectFrom("webhook_deliveries")
      .select(["id", "receiver_id"])
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", now)
      .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", now)]))
      .where("receiver_id", "in", trx.selectFrom("webhook_receivers").select("id").where("active", "=", 1))
      .orderBy("next_attempt_at")
      .orderBy("id")
      .limit(options.limit * 4);
    if (options.excludeReceivers?.length) q = q.where("receiver_id", "not in", [...options.excludeReceivers]);
    if (rowLocks) q = q.forUpdate().skipLocked();
    const candidates = await q.execute();
    const perReceiver = new Map<number, number>();
    const ids: number[] = [];
    for (const c of candidates) {
      const r = Number(c.receiver_id);
      const n = perReceiver.get(r) ?? 0;
      if (options.perReceiver !== undefined && n >= options.perReceiver) continue;
      perReceiver.set(r, n + 1);
      ids.push(Number(c.id));
      if (ids.length >= options.limit) break;
    }
    if (ids.length === 0) return [];
    const rows = await trx
      .updateTable("webhook_deliveries")
      .set({ locked_until: leaseUntil, locked_by: options.worker, attempts: sql`attempts + 1` })
      .where("id", "in", ids)
      .where("status", "=", "pending")
      .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", now)]))
      .returning(["id", "uuid", "receiver_id", "event", "payload", "attempts", "failures"])
      .execute();
    if (rows.length === 0) return [];
    const receivers = await trx
      .selectFrom("webhook_receivers")
      .select(["id", "url", "secret"])
      .where("id", "in", [...new Set(rows.map((r) => Number(r.receiver_id)))])
      .execute();
    const byId = new Map(receivers.map((r) => [Number(r.id), r]));
    return rows
      .sort((a, b) => Number(a.id) - Number(b.id))
      .map((r) => {
        const receiver = byId.get(Number(r.receiver_id));
        return {
          id: Number(r.id),
          uuid: r.uuid,
          receiver_id: Number(r.receiver_id),
          url: receiver?.url ?? "",
          secret: receiver?.secret ?? "",
          event: r.event,
          payload: r.payload,
          attempt: Number(r.attempts),
          failures: Number(r.failures),
        };
      });
  };
  return rowLocks ? db.transaction().execute(claim) : claim(db);
}

/** What one attempt gave. */
export interface AttemptOutcome {
  ok: boolean;
  /** No retry can help (a refused address, an invalid URL): fail now. */
  permanent?: boolean;
  /** The worker stopped mid-attempt: not counted as a failure, due again at once. */
  aborted?: boolean;
  status: number | null;
  error: string | null;
  startedAt: Date;
  durationMs: number;
}

export interface FinishOptions {
  now: Date;
  worker: string;
  schedule?: readonly number[];
  jitter?: number;
  random?: () => number;
}

export type FinalState = "delivered" | "retry" | "failed" | "released";

/**
 * Logs the attempt and moves the delivery on: delivered, scheduled for a retry, failed once the schedule is
 * exhausted, or released (aborted). Only the worker still holding the lease updates the delivery.
 */
export async function finishAttempt(
  db: DB,
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome,
  options: FinishOptions,
): Promise<FinalState> {
  const now = isoTimestamp(options.now);
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto("webhook_attempts")
      .values({
        delivery_id: delivery.id,
        attempt: delivery.attempt,
        started_at: isoTimestamp(outcome.startedAt),
        duration_ms: Math.round(outcome.durationMs),
        status_code: outcome.status,
        error: outcome.error,
        worker: options.worker,
      })
      .execute();
    const mine = trx
      .updateTable("webhook_deliveries")
      .where("id", "=", delivery.id)
      .where("locked_by", "=", options.worker);
    const release = {
      locked_until: null,
      locked_by: null,
      last_status: outcome.status,
      last_error: outcome.error,
    };
    if (outcome.ok) {
      await mine.set({ ...release, status: "delivered", delivered_at: now }).execute();
      return "delivered";
    }
    if (outcome.aborted) {
      await mine.set(release).execute();
      return "released";
    }
    const failures = delivery.failures + 1;
    const delay = outcome.permanent ? null : retryDelayMs(failures, options);
    if (delay === null) {
      await mine.set({ ...release, status: "failed", failures }).execute();
      return "failed";
    }
    const next = isoTimestamp(new Date(options.now.getTime() + delay));
    await mine.set({ ...release, failures, next_attempt_at: next }).execute();
    return "retry";
  });
}
