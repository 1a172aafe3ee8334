import { sql } from "kysely";
import { capabilitiesOf } from "../db/capabilities.ts";
import type { DB } from "../schema/database.ts";

/** The SQLite triggers dropped by `quietDataTriggers`, per transaction, to be created again by `wakeDataTriggers`. */
const dropped = new WeakMap<DB, string[]>();

/**
 * The data triggers of migration `007-data-triggers` stay quiet inside a writer's transaction between these two
 * calls: the writer refreshes `latest_scans` and bumps the generation itself, once for the whole batch, where the
 * triggers would do it for every row. On SQLite the triggers are dropped inside the transaction and created again
 * before it commits (no other connection ever sees them missing; a rollback restores them): even a `when` clause
 * that finds them quiet costs an import a third of its speed. On PostgreSQL a transaction-local setting.
 */
export async function quietDataTriggers(trx: DB): Promise<void> {
  if (capabilitiesOf(trx).transactionSettings) {
    await sql`select set_config('unirank.writer', 'on', true)`.execute(trx);
    return;
  }
  const { rows } = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
    where type = 'trigger' and substr(name, 1, 8) = 'unirank_'`.execute(trx);
  for (const r of rows) await sql.raw(`drop trigger ${r.name}`).execute(trx);
  dropped.set(
    trx,
    rows.map((r) => r.sql),
  );
}

/** Ends `quietDataTriggers`; call it before the transaction commits. */
export async function wakeDataTriggers(trx: DB): Promise<void> {
  if (capabilitiesOf(trx).transactionSettings) {
    await sql`select set_config('unirank.writer', '', true)`.execute(trx);
    return;
  }
  for (const text of dropped.get(trx) ?? []) await sql.raw(text).execute(trx);
  dropped.delete(trx);
}
