import { notFound } from "../errors.ts";
import type { DB } from "../schema/database.ts";
import type { DeliveryStatus } from "../schema/webhook-tables.ts";
import { type Clock, isoTimestamp, systemClock } from "../time/format.ts";

export interface Delivery {
  id: number;
  uuid: string;
  receiver_id: number;
  url: string;
  event: string;
  scan_id: number | null;
  status: DeliveryStatus;
  attempts: number;
  failures: number;
  next_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface DeliveryAttempt {
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  worker: string | null;
}

/** Deliveries, newest first, optionally of one status or receiver. */
export async function listDeliveries(
  db: DB,
  filter: { status?: DeliveryStatus; receiverId?: number; limit?: number } = {},
): Promise<Delivery[]> {
  let q = db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhook_receivers as r", "r.id", "d.receiver_id")
    .select([
      "d.id",
      "d.uuid",
      "d.receiver_id",
      "r.url",
      "d.event",
      "d.scan_id",
      "d.status",
      "d.attempts",
      "d.failures",
      "d.next_attempt_at",
      "d.last_status",
      "d.last_error",
      "d.created_at",
      "d.delivered_at",
    ])
    .orderBy("d.id", "desc")
    .limit(filter.limit ?? 50);
  if (filter.status) q = q.where("d.status", "=", filter.status);
  if (filter.receiverId !== undefined) q = q.where("d.receiver_id", "=", filter.receiverId);
  const rows = await q.execute();
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    receiver_id: Number(r.receiver_id),
    scan_id: r.scan_id === null ? null : Number(r.scan_id),
    attempts: Number(r.attempts),
    failures: Number(r.failures),
    last_status: r.last_status === null ? null : Number(r.last_status),
    next_attempt_at: r.status === "pending" ? r.next_attempt_at : null,
  }));
}

/** Finds a delivery by its number or its `X-Webhook-Delivery` id. */
async function deliveryId(db: DB, idOrUuid: string | number): Promise<number> {
  const text = String(idOrUuid);
  const row = /^[0-9]+$/.test(text)
    ? await db.selectFrom("webhook_deliveries").select("id").where("id", "=", Number(text)).executeTakeFirst()
    : await db.selectFrom("webhook_deliveries").select("id").where("uuid", "=", text).executeTakeFirst();
  if (!row) throw notFound(`no webhook delivery ${text}`);
  return Number(row.id);
}

/** Every attempt of one delivery, oldest first. */
export async function deliveryAttempts(db: DB, idOrUuid: string | number): Promise<DeliveryAttempt[]> {
  const id = await deliveryId(db, idOrUuid);
  const rows = await db
    .selectFrom("webhook_attempts")
    .select(["attempt", "started_at", "duration_ms", "status_code", "error", "worker"])
    .where("delivery_id", "=", id)
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    ...r,
    attempt: Number(r.attempt),
    duration_ms: Number(r.duration_ms),
    status_code: r.status_code === null ? null : Number(r.status_code),
  }));
}

/**
 * Queues a delivery again, due now, with a fresh retry schedule (the same `X-Webhook-Delivery` id and body).
 * Works for failed and delivered ones alike; returns its number.
 */
export async function redeliver(
  db: DB,
  idOrUuid: string | number,
  options: { clock?: Clock } = {},
): Promise<number> {
  const id = await deliveryId(db, idOrUuid);
  await db
    .updateTable("webhook_deliveries")
    .set({
      status: "pending",
      failures: 0,
      next_attempt_at: isoTimestamp((options.clock ?? systemClock)()),
      locked_until: null,
      locked_by: null,
    })
    .where("id", "=", id)
    .execute();
  return id;
}

/** Deliveries still to send (`pending`) and given up (`failed`): how many, and when the oldest was queued. */
export async function deliveryBacklog(
  db: DB,
): Promise<Record<"pending" | "failed", { count: number; oldest: string | null }>> {
  const rows = await db
    .selectFrom("webhook_deliveries")
    .select((eb) => ["status", eb.fn.countAll().as("n"), eb.fn.min("created_at").as("oldest")])
    .where("status", "in", ["pending", "failed"])
    .groupBy("status")
    .execute();
  const out = { pending: { count: 0, oldest: null }, failed: { count: 0, oldest: null } } as Record<
    "pending" | "failed",
    { count: number; oldest: string | null }
  >;
  for (const r of rows) {
    out[r.status as "pending" | "failed"] = {
      count: Number(r.n),
      oldest: (r.oldest as string | null) ?? null,
    };
  }
  return out;
}
