import type { ColumnDefinitionBuilder, Kysely } from "kysely";
import { capabilitiesOf } from "../db/capabilities.ts";

/**
 * Webhook receivers, the delivery outbox (one row per receiver per event, written in the transaction that
 * completes the scan) and the log of every delivery attempt. Times are ISO 8601 text in one fixed format
 * (`isoTimestamp`), so they compare correctly as strings on every database.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { serialIds, types } = capabilitiesOf(db);
  const idType = types.id;
  const id = (c: ColumnDefinitionBuilder) => (serialIds ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable("webhook_receivers")
    .addColumn("id", idType, id)
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", idType, id)
    .addColumn("uuid", "text", (c) => c.notNull().unique())
    .addColumn("receiver_id", "integer", (c) =>
      c.notNull().references("webhook_receivers.id").onDelete("cascade"),
    )
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("scan_id", "integer", (c) => c.references("scans.id").onDelete("cascade"))
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failures", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("locked_until", "text")
    .addColumn("locked_by", "text")
    .addColumn("last_status", "integer")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("delivered_at", "text")
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_due")
    .on("webhook_deliveries")
    .columns(["status", "next_attempt_at", "id"])
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_receiver")
    .on("webhook_deliveries")
    .columns(["receiver_id", "status"])
    .execute();
  await db.schema.createIndex("webhook_deliveries_scan").on("webhook_deliveries").column("scan_id").execute();

  await db.schema
    .createTable("webhook_attempts")
    .addColumn("id", idType, id)
    .addColumn("delivery_id", "integer", (c) =>
      c.notNull().references("webhook_deliveries.id").onDelete("cascade"),
    )
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("error", "text")
    .addColumn("worker", "text")
    .execute();
  await db.schema
    .createIndex("webhook_attempts_delivery")
    .on("webhook_attempts")
    .columns(["delivery_id", "id"])
    .execute();
}
