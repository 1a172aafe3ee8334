import type { DB } from "../schema/database.ts";
import { isoTimestamp } from "../time/format.ts";
import type { ScanTarget } from "./scan-outcome.ts";

export interface TargetQuery {
  /** These domains only (each must be stored). */
  domains?: string[];
  /** Only universities whose latest completed scan is older than this many days, or that have none. */
  staleDays?: number;
  /** ISO 3166-1 alpha-2. */
  country?: string;
  limit?: number;
  now?: Date;
}

/**
 * The universities `unirank scan` should scan, in domain order (stalest first with `staleDays`).
 * Throws naming the domains given that are not stored.
 */
export async function scanTargets(db: DB, q: TargetQuery): Promise<Required<ScanTarget>[]> {
  let query = db
    .selectFrom("universities as u")
    .leftJoin("latest_scans as l", "l.university_id", "u.id")
    .select(["u.domain", "u.name", "u.country", "l.completed_at"]);
  if (q.domains) {
    const wanted = [...new Set(q.domains.map((d) => d.trim().toLowerCase()))];
    if (wanted.length === 0) return [];
    query = query.where("u.domain", "in", wanted);
  }
  if (q.country) query = query.where("u.country", "=", q.country.toUpperCase());
  if (q.staleDays !== undefined) {
    const cutoff = isoTimestamp(new Date((q.now ?? new Date()).getTime() - q.staleDays * 86_400_000));
    query = query.where((eb) => eb.or([eb("l.completed_at", "is", null), eb("l.completed_at", "<", cutoff)]));
    // Never scanned first on every database (SQLite sorts nulls first, PostgreSQL last).
    query = query
      .orderBy((eb) => eb.case().when("l.completed_at", "is", null).then(0).else(1).end(), "asc")
      .orderBy("l.completed_at", "asc");
  }
  query = query.orderBy("u.domain", "asc");
  if (q.limit !== undefined) query = query.limit(q.limit);
  const rows = await query.execute();
  if (q.domains) {
    const found = new Set(rows.map((r) => r.domain));
    const missing = q.domains.map((d) => d.trim().toLowerCase()).filter((d) => !found.has(d));
    if (missing.length > 0 && q.staleDays === undefined && !q.country && q.limit === undefined)
      throw new Error(`not a stored university: ${missing.join(", ")} (import it first)`);
  }
  return rows.map((r) => ({ domain: r.domain, name: r.name, country: r.country }));
}
