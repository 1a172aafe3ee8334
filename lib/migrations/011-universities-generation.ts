import { type Kysely, sql } from "kysely";
import { capabilitiesOf } from "../db/capabilities.ts";
import { replaceSqliteTriggers, sqliteUniversitiesTriggers } from "./007-data-triggers.ts";

/**
 * The universities generation (`bumpGeneration`): `unirank_meta.universities_generation` holds the data generation
 * at the last change of `universities`, so what is derived from that table alone (the list's order, the search
 * index) outlives a new scan. The data triggers on `universities` set it after their bump, as unirank's writers
 * do; the triggers on `scans` leave it. It starts at the current data generation.
 */
const SET = `insert into unirank_meta (key, value)
  select 'universities_generation', value from unirank_meta where key = 'generation'
  on conflict (key) do update set value = excluded.value;`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(SET).execute(db);
  if (capabilitiesOf(db).triggers === "sqlite") {
    await replaceSqliteTriggers(db, sqliteUniversitiesTriggers(`\n    ${SET}`));
    return;
  }
  // A trigger of its own: PostgreSQL fires the triggers of one event in the order of their names, so this one
  // runs after `unirank_universities_changed` has bumped the data generation.
  await sql
    .raw(`create function unirank_universities_generation() returns trigger language plpgsql as $$
    begin
      if coalesce(current_setting('unirank.writer', true), '') = 'on' then return null; end if;
      ${SET}
      return null;
    end $$`)
    .execute(db);
  await sql
    .raw(`create trigger unirank_universities_generation after insert or update or delete on universities
      for each row execute function unirank_universities_generation()`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from unirank_meta where key = 'universities_generation'`.execute(db);
  if (capabilitiesOf(db).triggers === "sqlite") {
    await replaceSqliteTriggers(db, sqliteUniversitiesTriggers());
    return;
  }
  await sql`drop trigger if exists unirank_universities_generation on universities`.execute(db);
  await sql`drop function if exists unirank_universities_generation()`.execute(db);
}
