import { invalidParameter, notFound } from "../errors.ts";
import type { CompareParams } from "../params/operations.ts";
import type { DB } from "../schema/database.ts";
import { isoDate } from "../time/format.ts";
import type { Scores } from "./shapes.ts";
import { latestScoresOf } from "./university-scores.ts";

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
  const found = await latestScoresOf(db, ids);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw notFound(`Unknown university id${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}`);
  }
  return ids.map((id) => {
    const { reference, scan, scores } = found.get(id)!;
    return { university: reference, scan_date: scan ? isoDate(scan.completed_at) : null, scores };
  });
}
