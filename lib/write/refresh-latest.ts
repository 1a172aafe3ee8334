import { sql } from "kysely";
import type { DB } from "../schema/database.ts";
import { RANKED_SCORES } from "../scores/catalogue.ts";

const CHUNK = 500;

/**
 * Recomputes the materialised latest completed scan of the given universities (all when omitted), with the
 * previous completed scan (`previous_scan_id`, `previous_completed_at`, `prev_<score>`) beside it.
 * Latest means the greatest `completed_at`, ties by greater scan id; previous is the next one in that order.
 * Call inside the writing transaction.
 */
export async function refreshLatest(db: DB, universityIds?: Iterable<number>): Promise<void> {
  const ids = universityIds === undefined ? undefined : [...new Set(universityIds)];
  if (ids === undefined) return refreshChunk(db, undefined);
  for (let i = 0; i < ids.length; i += CHUNK) await refreshChunk(db, ids.slice(i, i + CHUNK));
}

async function refreshChunk(db: DB, ids: number[] | undefined): Promise<void> {
  if (ids !== undefined && ids.length === 0) return;
  let del = db.deleteFrom("latest_scans");
  if (ids) del = del.where("university_id", "in", ids);
  await del.execute();
  const cols = [...RANKED_SCORES, ...RANKED_SCORES.map((c) => `prev_${c}`)].map((c) => sql.ref(c));
  const values = [
    ...RANKED_SCORES.map((c) => sql.ref(`s.${c}`)),
    ...RANKED_SCORES.map((c) => sql.ref(`p.${c}`)),
  ];
  const scoped = ids ? sql`and s.university_id in (${sql.join(ids)})` : sql``;
  await sql`insert into latest_scans
      (university_id, scan_id, completed_at, country, previous_scan_id, previous_completed_at, ${sql.join(cols)})
    select s.university_id, s.id, s.completed_at, u.country, p.id, p.completed_at, ${sql.join(values)}
    from scans s join universities u on u.id = s.university_id
    left join scans p on p.id = (
      select s3.id from scans s3
      where s3.university_id = s.university_id and s3.status = 'completed'
        and (s3.completed_at < s.completed_at or (s3.completed_at = s.completed_at and s3.id < s.id))
      order by s3.completed_at desc, s3.id desc
      limit 1)
    where s.status = 'completed' ${scoped}
      and s.id = (select s2.id from scans s2
                  where s2.university_id = s.university_id and s2.status = 'completed'
                  order by s2.completed_at desc, s2.id desc limit 1)`.execute(db);
}
