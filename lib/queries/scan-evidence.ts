import { prepared } from "../db/prepared.ts";
import type { DB } from "../schema/database.ts";

/** A scan's stored evidence, by scan id: compiled once. */
const evidenceQuery = prepared((db, arg: (i: number) => number) =>
  db.selectFrom("scan_evidence").select("evidence").where("scan_id", "=", arg(0)),
);

/**
 * The evidence stored with a scan (the JSON object its record carried), or null when the scan has none or does
 * not exist (`getScan` says which).
 */
export async function scanEvidence(db: DB, scanId: number): Promise<Record<string, unknown> | null> {
  const [row] = await evidenceQuery(db, [scanId]);
  return row ? (JSON.parse(row.evidence) as Record<string, unknown>) : null;
}
