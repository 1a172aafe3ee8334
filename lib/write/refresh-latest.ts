import { sql } from "kysely";
import { capabilitiesOf } from "../db/capabilities.ts";
import type { DB } from "../schema/database.ts";
import { RANKED_SCORES } from "../scores/catalogue.ts";
import { letOthersRun } from "../steps/run-steps.ts";

const CHUNK = 500;

/**
 * Recomputes the materialised latest completed scan of the given universities (all when omitted), with the
 * previous completed scan (`previous_scan_id`, `previous_completed_at`, `prev_<score>`, `prev_profile`) beside it.
 * Latest means the greatest `completed_at`, ties by greater scan id; previous is the next one in that order.
 * Call inside the writing transaction.
 */
export async function refreshLatest(db: DB, universityIds?: Iterable<number>): Promise<void> {
  const ids = universityIds === undefined ? undefined : [...new Set(universityIds)];
  if (ids === undefined) return refreshChunk(db, undefined);
  for (let i = 0; i < ids.length; i += CHUNK) {
    // Between chunks the event loop runs: an import's refresh of 100,000 universities is 200 chunks, whose garbage
    // the process collects meanwhile, and its timers and signals are heard (docs/performance.md).
    if (i > 0) await letOthersRun();
    await refreshChunk(db, ids.slice(i, i + CHUNK));
  }
}

async function refreshChunk(db: DB, ids: number[] | undefined): Promise<void> {
  if (ids !== undefined && ids.length === 0) return;
  let del = db.deleteFrom("latest_scans");
  if (ids) del = del.where("university_id", "in", ids);
  await del.execute();
  const cols = [...RANKED_SCORES, ...RANKED_SCORES.map((c) => `prev_${c}`)].map((c) => sql.ref(c));
  const values = [
    ...RANKED_SCORES.map((c) => sql.ref(`l.${c}`)),
    ...RANKED_SCORES.map((c) => sql.ref(`p.${c}`)),
  ];
  const scoped = ids ? sql`and s.university_id in (${sql.join(ids)})` : sql``;
  // SQLite would otherwise walk (status, completed_at) and look every row up: 5x slower than this covering index.
  const scans = capabilitiesOf(db).indexHints
    ? sql`scans s indexed by scans_university_completed`
    : sql`scans s`;
  // One ordered pass over the completed scans numbers each university's scans, latest first; the first is the
  // latest, the one after it (lead) the previous, and the whole partition counts them.
  await sql`insert into latest_scans
      (university_id, scan_id, completed_at, country, previous_scan_id, previous_completed_at, scan_count,
       profile, prev_profile, ${sql.join(cols)})
    select r.university_id, r.id, l.completed_at, u.country, r.previous_id, p.completed_at, r.scan_count,
      l.profile, p.profile, ${sql.join(values)}
    from (
      select s.university_id, s.id, row_number() over w as n, lead(s.id) over w as previous_id,
        count(*) over (w rows between unbounded preceding and unbounded following) as scan_count
      from ${scans}
      where s.status = 'completed' ${scoped}
      window w as (partition by s.university_id order by s.completed_at desc, s.id desc)) r
    join scans l on l.id = r.id
    join universities u on u.id = r.university_id
    left join scans p on p.id = r.previous_id
    where r.n = 1`.execute(db);
}
