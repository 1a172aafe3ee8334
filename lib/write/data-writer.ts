import { sql } from "kysely";
import type { DB } from "../schema/database.ts";
import { dialectKind } from "../schema/dialect-kind.ts";

/**
 * The data triggers of migration `007-data-triggers` stay quiet inside a writer's transaction between these two
 * calls: the writer refreshes `latest_scans` and bumps the generation itself, once for the whole batch, where the
 * triggers would do it for every row. On SQLite a `writer` row in `unirank_meta` that is removed before the
 * transaction commits (no other connection ever sees it; a rollback removes it too); on PostgreSQL a
 * transaction-local setting.
 */
export async function quietDataTriggers(trx: DB): Promise<void> {
  if (dialectKind(trx) === "sqlite") {
    await sql`insert into unirank_meta (key, value) values ('writer', '1') on conflict (key) do nothing`.execute(
      trx,
    );
  } else {
    await sql`select set_config('unirank.writer', 'on', true)`.execute(trx);
  }
}

/** Ends `quietDataTriggers`; call it before the transaction commits. */
export async function wakeDataTriggers(trx: DB): Promise<void> {
  if (dialectKind(trx) === "sqlite") await sql`delete from unirank_meta where key = 'writer'`.execute(trx);
  else await sql`select set_config('unirank.writer', '', true)`.execute(trx);
}
