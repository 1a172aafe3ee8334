import { prepared } from "../db/prepared.ts";
import { invalidParameter, notFound } from "../errors.ts";
import type { CompareParams } from "../params/operations.ts";
import type { DB } from "../schema/database.ts";
import { SCORE_NAMES } from "../scores/catalogue.ts";
import { isoDate } from "../time/format.ts";
import { pickScores, type Scores } from "./shapes.ts";

/** The universities compared with their latest scan and its scores; one compiled statement per number of ids. */
const compareQuery = prepared((db, arg: (i: number) => number, n) =>
  db
    .selectFrom("universities as u")
    .leftJoin("latest_scans as l", "l.university_id", "u.id")
    .leftJoin("scans as s", "s.id", "l.scan_id")
    .select(["u.id", "u.domain", "u.name", "l.scan_id", "l.completed_at", "s.id as scored_id"])
    .select(SCORE_NAMES.map((n) => `s.${n}` as const))
    .where(
      "u.id",
      "in",
      Array.from({ length: n }, (_, i) => arg(i)),
    ),
);

export interface ComparisonEntry {
  university: { id: number; domain: string; name: string };
  scan_date: string | null;
  scores: Scores | null;
}

/** Parses `ids`: 2..10 distinct positive integers, comma-separated, order kept. */
export function parseIds(text: string): number[] {
  const fail = (message: string) => invalidParameter([{ param: "ids", message }]);
  const parts = text.split(",");
  if (parts.some((p) => !/^[0-9]{1,10}$/.test(p) || Number(p) < 1 || Number(p) > 2 ** 31 - 1)) {
    throw fail("ids must be comma-separated positive integers");
  }
  const ids = parts.map(Number);
  if (new Set(ids).size !== ids.length) throw fail("ids must be distinct");
  if (ids.length < 2 || ids.length > 10) throw fail("ids must name from 2 to 10 universities");
  return ids;
}

/** Latest completed scores of 2..10 universities, in the order given; unknown ids are a 404 naming them. */
export async function compare(db: DB, params: CompareParams): Promise<ComparisonEntry[]> {
  return comparisonEntries(db, parseIds(params.ids));
}

/** `compare`'s entries of 1..10 distinct ids (as `parseIds` gives them), in their order. */
export async function comparisonEntries(db: DB, ids: readonly number[]): Promise<ComparisonEntry[]> {
  const rows = await compareQuery(db, ids, ids.length);
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    throw notFound(`Unknown university id${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}`);
  }
  return ids.map((id) => {
    const r = byId.get(id)!;
    const scanId = r.scan_id == null ? null : Number(r.scan_id);
    return {
      university: { id, domain: r.domain, name: r.name },
      scan_date: r.completed_at ? isoDate(r.completed_at) : null,
      scores: scanId === null || r.scored_id == null ? null : pickScores(r as Record<string, unknown>),
    };
  });
}
