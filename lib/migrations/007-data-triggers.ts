import { type Kysely, sql } from "kysely";
import { capabilitiesOf } from "../db/capabilities.ts";
import { RANKED_COLUMNS_001 as RANKED_SCORES } from "./001-core.ts";

/**
 * Triggers on the data tables, so that a write unirank did not make (an operator's `UPDATE` in `sqlite3` or
 * `psql`) reaches everything derived from the data: each changed row of `universities` or `scans` bumps the data
 * generation (rankings, leaderboards, the search index, regressions and the response cache are rebuilt for the
 * next generation), a changed scan recomputes its university's row of `latest_scans`, and a changed country is
 * copied there; a changed name or domain without a new `search_text` gets `lower(name || ' ' || domain)` (the search
 * key for ASCII text; accents are folded as unirank folds them at its next write of that university).
 * unirank's own writers maintain both themselves, in bulk, and switch the triggers off for their
 * transaction (`quietDataTriggers`): on SQLite by dropping them inside it and creating them again before it commits,
 * on PostgreSQL with the transaction-local setting `unirank.writer`.
 */

/** The refresh of one university's `latest_scans` row (as `refreshLatest`), `U` standing for its id. */
function refreshOne(u: string): string {
  const cols = [...RANKED_SCORES, ...RANKED_SCORES.map((c) => `prev_${c}`)].join(", ");
  const values = [...RANKED_SCORES.map((c) => `l.${c}`), ...RANKED_SCORES.map((c) => `p.${c}`)].join(", ");
  return `delete from latest_scans where university_id = ${u};
    insert into latest_scans
      (university_id, scan_id, completed_at, country, previous_scan_id, previous_completed_at, scan_count, ${cols})
    select r.university_id, r.id, l.completed_at, un.country, r.previous_id, p.completed_at, r.scan_count, ${values}
    from (
      select s.university_id, s.id, row_number() over w as n, lead(s.id) over w as previous_id,
        count(*) over (w rows between unbounded preceding and unbounded following) as scan_count
      from scans s
      where s.status = 'completed' and s.university_id = ${u}
      window w as (partition by s.university_id order by s.completed_at desc, s.id desc)) r
    join scans l on l.id = r.id
    join universities un on un.id = r.university_id
    left join scans p on p.id = r.previous_id
    where r.n = 1;`;
}

const BUMP = `insert into unirank_meta (key, value) values ('generation', '1')
  on conflict (key) do update set value = cast(cast(unirank_meta.value as integer) + 1 as text);`;

/** The SQLite triggers on `universities`; `also` is run by each after the bump (migration 011 adds one). */
export const sqliteUniversitiesTriggers = (also = ""): Record<string, string> => ({
  unirank_universities_insert: `after insert on universities begin ${BUMP}${also} end`,
  unirank_universities_update: `after update on universities begin ${BUMP}${also}
    update latest_scans set country = new.country where university_id = new.id;
    update universities set search_text = lower(new.name || ' ' || new.domain) where id = new.id
      and (new.name is not old.name or new.domain is not old.domain) and new.search_text is old.search_text; end`,
  unirank_universities_delete: `after delete on universities begin ${BUMP}${also} end`,
});

/** Creates `triggers` (name → `<timing> begin <body>`) as row triggers, in place of any of those names. */
export async function replaceSqliteTriggers(
  db: Kysely<unknown>,
  triggers: Record<string, string>,
): Promise<void> {
  for (const [name, body] of Object.entries(triggers)) {
    await sql.raw(`drop trigger if exists ${name}`).execute(db);
    const [timing, rest] = body.split(/ begin /, 2) as [string, string];
    await sql.raw(`create trigger ${name} ${timing} for each row begin ${rest}`).execute(db);
  }
}

const SQLITE_TRIGGERS: Record<string, string> = {
  ...sqliteUniversitiesTriggers(),
  unirank_scans_insert: `after insert on scans begin ${BUMP} ${refreshOne("new.university_id")} end`,
  unirank_scans_update: `after update on scans begin ${BUMP} ${refreshOne("old.university_id")}
    ${refreshOne("new.university_id")} end`,
  unirank_scans_delete: `after delete on scans begin ${BUMP} ${refreshOne("old.university_id")} end`,
};

export async function up(db: Kysely<unknown>): Promise<void> {
  if (capabilitiesOf(db).triggers === "sqlite") {
    await replaceSqliteTriggers(db, SQLITE_TRIGGERS);
    return;
  }
  await sql
    .raw(`create function unirank_refresh_latest(u integer) returns void language sql as $$
      ${refreshOne("u")} $$`)
    .execute(db);
  await sql
    .raw(`create function unirank_data_changed() returns trigger language plpgsql as $$
    begin
      if coalesce(current_setting('unirank.writer', true), '') = 'on' then return null; end if;
      ${BUMP}
      if tg_table_name = 'scans' then
        if tg_op in ('UPDATE', 'DELETE') then perform unirank_refresh_latest(old.university_id); end if;
        if tg_op in ('INSERT', 'UPDATE') then perform unirank_refresh_latest(new.university_id); end if;
      elsif tg_op = 'UPDATE' then
        update latest_scans set country = new.country where university_id = new.id;
        if (new.name, new.domain) is distinct from (old.name, old.domain)
          and new.search_text is not distinct from old.search_text then
          update universities set search_text = lower(new.name || ' ' || new.domain) where id = new.id;
        end if;
      end if;
      return null;
    end $$`)
    .execute(db);
  for (const table of ["universities", "scans"]) {
    await sql
      .raw(`create trigger unirank_${table}_changed after insert or update or delete on ${table}
        for each row execute function unirank_data_changed()`)
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (capabilitiesOf(db).triggers === "sqlite") {
    for (const name of Object.keys(SQLITE_TRIGGERS))
      await sql.raw(`drop trigger if exists ${name}`).execute(db);
    return;
  }
  for (const table of ["universities", "scans"]) {
    await sql.raw(`drop trigger if exists unirank_${table}_changed on ${table}`).execute(db);
  }
  await sql`drop function if exists unirank_data_changed()`.execute(db);
  await sql`drop function if exists unirank_refresh_latest(integer)`.execute(db);
}
