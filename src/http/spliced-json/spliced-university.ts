import { type DB, getUniversity } from "../../../lib/index.ts";
import { JsonText } from "./json-text.ts";
import { rankedRowsOf, slotOf, textAt } from "./ranked-row-texts.ts";

/**
 * The HTTP fast path of v1 `/universities/{id}`: the core's `getUniversity` without its latest scan, spliced from
 * the texts the rankings serialise once per data generation instead of read from the database per request. A
 * university with no latest completed scan (not among those texts) is read as before. The bytes equal
 * `JSON.stringify` of the core's answer (test/db/spliced-json.test.ts); why it exists is in docs/performance.md.
 */
export async function splicedUniversity(db: DB, id: number): Promise<unknown> {
  const rows = await rankedRowsOf(db);
  const slot = slotOf(rows, id);
  if (slot < 0) {
    const { latest_scan: _, ...university } = await getUniversity(db, id);
    return university;
  }
  return new JsonText(
    `{${textAt(rows.university, slot)},"created_at":${textAt(rows.createdAt, slot)},"scan_count":${rows.scanCount[slot]}}`,
  );
}
