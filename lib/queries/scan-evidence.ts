import type { DB } from "../schema/database.ts";

/**
 * The evidence stored with a scan (the JSON object its record carried), or null when the scan has none or does
 * not exist (`getScan` says which).
 */
export async function scanEvidence(db: DB, scanId: number): Promise<Record<string, unknown> | null> {
  const row = await db
    .selectFrom("scan_evidence")
    .select("evidence")
    .where("scan_id", "=", scanId)
    .executeTakeFirst();
  return row ? (JSON.parse(row.evidence) as Record<string, unknown>) : null;
}
