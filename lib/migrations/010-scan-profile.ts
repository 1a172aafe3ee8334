import { type Kysely, sql } from "kysely";
import { capabilitiesOf } from "../db/capabilities.ts";
import { RANKED_COLUMNS_001 as RANKED_SCORES } from "./001-core.ts";
import { replaceSqliteTriggers } from "./007-data-triggers.ts";

/**
 * What made a scan's scores. `scans.profile`: the measurement parts that ran (`site,browser,openalex` …), or
 * `unknown` for scans unirank did not measure itself; `scans.rubric_version`: the version of unirank's rubrics that
 * scored it, null when unirank's rubrics did not (an import that names none). `latest_scans` carries the profile of
 * the latest and of the previous completed scan, so rankings and regressions compare like with like.
 * Scans stored before have profile `unknown`; those whose evidence holds the scanner's observations were scored
 * by rubric version 1. The data triggers of 007 refresh the new columns too.
 */

/** The refresh of one university's `latest_scans` row, `U` standing for its id: 007's, with the profiles. */
function refreshOne(u: string, profiles = true): string {
  const cols = [...RANKED_SCORES, ...RANKED_SCORES.map((c) => `prev_${c}`)].join(", ");
  const values = [...RANKED_SCORES.map((c) => `l.${c}`), ...RANKED_SCORES.map((c) => `p.${c}`)].join(", ");
  return `delete from latest_scans where university_id = ${u};
    insert into latest_scans
      (university_id, scan_id, completed_at, country, previous_scan_id, previous_completed_at, scan_count,
       ${profiles ? "profile, prev_profile," : ""} ${cols})
    select r.university_id, r.id, l.completed_at, un.country, r.previous_id, p.completed_at, r.scan_count,
      ${profiles ? "l.profile, p.profile," : ""} ${values}
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

const sqliteScanTriggers = (profiles: boolean): Record<string, string> => ({
  unirank_scans_insert: `after insert on scans begin ${BUMP} ${refreshOne("new.university_id", profiles)} end`,
  unirank_scans_update: `after update on scans begin ${BUMP} ${refreshOne("old.university_id", profiles)}
    ${refreshOne("new.university_id", profiles)} end`,
  unirank_scans_delete: `after delete on scans begin ${BUMP} ${refreshOne("old.university_id", profiles)} end`,
});

const postgresRefresh = (profiles: boolean) =>
  `create or replace function unirank_refresh_latest(u integer) returns void language sql as $$
    ${refreshOne("u", profiles)} $$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const caps = capabilitiesOf(db);
  await db.schema
    .alterTable("scans")
    .addColumn("profile", "text", (c) => c.notNull().defaultTo("unknown"))
    .execute();
  await db.schema.alterTable("scans").addColumn("rubric_version", "integer").execute();
  await db.schema
    .alterTable("latest_scans")
    .addColumn("profile", "text", (c) => c.notNull().defaultTo("unknown"))
    .execute();
  await db.schema.alterTable("latest_scans").addColumn("prev_profile", "text").execute();
  await sql`update latest_scans set prev_profile = 'unknown' where previous_scan_id is not null`.execute(db);
  await db.schema.createIndex("latest_scans_profile").on("latest_scans").columns(["profile"]).execute();
  const scannerEvidence =
    caps.family === "sqlite"
      ? sql`json_valid(e.evidence) and json_type(e.evidence, '$.observations') = 'object'`
      : sql`jsonb_typeof(e.evidence::jsonb -> 'observations') = 'object'`;
  await sql`update scans set rubric_version = 1
    where id in (select e.scan_id from scan_evidence e where ${scannerEvidence})`.execute(db);
  if (caps.triggers === "sqlite") await replaceSqliteTriggers(db, sqliteScanTriggers(true));
  else await sql.raw(postgresRefresh(true)).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (capabilitiesOf(db).triggers === "sqlite") await replaceSqliteTriggers(db, sqliteScanTriggers(false));
  else await sql.raw(postgresRefresh(false)).execute(db);
  await db.schema.dropIndex("latest_scans_profile").execute();
  await db.schema.alterTable("latest_scans").dropColumn("prev_profile").execute();
  await db.schema.alterTable("latest_scans").dropColumn("profile").execute();
  await db.schema.alterTable("scans").dropColumn("rubric_version").execute();
  await db.schema.alterTable("scans").dropColumn("profile").execute();
}
