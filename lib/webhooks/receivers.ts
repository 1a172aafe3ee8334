import { notFound } from "../errors.ts";
import type { DB } from "../schema/database.ts";
import { type Clock, isoTimestamp, systemClock } from "../time/format.ts";

export interface Receiver {
  id: number;
  url: string;
  secret: string;
  active: boolean;
  created_at: string;
}

export interface ReceiverSummary extends Receiver {
  pending: number;
  delivered: number;
  failed: number;
}

/** Adds a receiver (active). Check the URL with `refuseReceiverUrl` first. */
export async function addReceiver(
  db: DB,
  input: { url: string; secret: string; active?: boolean },
  options: { clock?: Clock } = {},
): Promise<Receiver> {
  const url = new URL(input.url).toString();
  if (input.secret.length === 0) throw new Error("the secret must not be empty");
  const created_at = isoTimestamp((options.clock ?? systemClock)());
  const active = input.active === false ? 0 : 1;
  const row = await db
    .insertInto("webhook_receivers")
    .values({ url, secret: input.secret, active, created_at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), url, secret: input.secret, active: active === 1, created_at };
}

/** Every receiver with the count of its deliveries by status. */
export async function listReceivers(db: DB): Promise<ReceiverSummary[]> {
  const receivers = await db.selectFrom("webhook_receivers").selectAll().orderBy("id").execute();
  const counts = await db
    .selectFrom("webhook_deliveries")
    .select(["receiver_id", "status", (eb) => eb.fn.countAll().as("n")])
    .groupBy(["receiver_id", "status"])
    .execute();
  return receivers.map((r) => {
    const of = (status: string) =>
      Number(counts.find((c) => Number(c.receiver_id) === Number(r.id) && c.status === status)?.n ?? 0);
    return {
      id: Number(r.id),
      url: r.url,
      secret: r.secret,
      active: Number(r.active) === 1,
      created_at: r.created_at,
      pending: of("pending"),
      delivered: of("delivered"),
      failed: of("failed"),
    };
  });
}

/** Removes a receiver with its deliveries and their attempts. */
export async function removeReceiver(db: DB, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const ids = trx.selectFrom("webhook_deliveries").select("id").where("receiver_id", "=", id);
    await trx.deleteFrom("webhook_attempts").where("delivery_id", "in", ids).execute();
    await trx.deleteFrom("webhook_deliveries").where("receiver_id", "=", id).execute();
    const result = await trx.deleteFrom("webhook_receivers").where("id", "=", id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound(`no webhook receiver ${id}`);
  });
}

/** Pauses (no new deliveries, pending ones wait) or resumes a receiver. */
export async function setReceiverActive(db: DB, id: number, active: boolean): Promise<void> {
  const result = await db
    .updateTable("webhook_receivers")
    .set({ active: active ? 1 : 0 })
    .where("id", "=", id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound(`no webhook receiver ${id}`);
}
