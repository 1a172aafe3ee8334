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

const MOST_ID = 2 ** 31 - 1;
const COMMA = 0x2c;

/** Parses `ids`: 2..10 distinct positive integers, comma-separated, order kept (one pass over the text). */
export function parseIds(text: string): number[] {
  const fail = (message: string) => invalidParameter([{ param: "ids", message }]);
  const ids: number[] = [];
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : COMMA;
    if (c === COMMA) {
      if (digits === 0 || value < 1 || value > MOST_ID)
        throw fail("ids must be comma-separated positive integers");
      ids.push(value);
      value = 0;
      digits = 0;
    } else if (c >= 0x30 && c <= 0x39 && digits < 10) {
      value = value * 10 + (c - 0x30);
      digits++;
    } else throw fail("ids must be comma-separated positive integers");
  }
  if (!distinct(ids)) throw fail("ids must be distinct");
  if (ids.length < 2 || ids.length > 10) throw fail("ids must name from 2 to 10 universities");
  return ids;
}

/** No id twice: compared pairwise for the few a comparison takes, through a set for more. */
function distinct(ids: readonly number[]): boolean {
  if (ids.length > 10) return new Set(ids).size === ids.length;
  for (let i = 1; i < ids.length; i++) for (let j = 0; j < i; j++) if (ids[i] === ids[j]) return false;
  return true;
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
