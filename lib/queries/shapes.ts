import { sql } from "kysely";
import { prepared } from "../db/prepared.ts";
import type { DB } from "../schema/database.ts";
import { SCORE_NAMES, type ScoreName } from "../scores/catalogue.ts";

/** Shapes shared by several queries. */

export interface University {
  id: number;
  domain: string;
  name: string;
  country: string;
  created_at: string;
}

export type Scores = Record<ScoreName, number | null>;

export interface PageMeta {
  page: number;
  limit: number;
  total: number;
}

export interface Paged<T, M extends PageMeta = PageMeta> {
  data: T[];
  meta: M;
}

export const UNIVERSITY_COLUMNS = ["id", "domain", "name", "country", "created_at"] as const;

export const toNumber = (v: unknown): number => Number(v ?? 0);

/** Picks the scores of a scan row, in catalogue order, as numbers or null. */
export function pickScores(row: Record<string, unknown>): Scores {
  const out = {} as Scores;
  for (const name of SCORE_NAMES) {
    const v = row[name];
    out[name] = v == null ? null : Number(v);
  }
  return out;
}

/** Offset of a page, or null when it lies past anything a database could hold. */
export function pageOffset(page: number, limit: number): number | null {
  const offset = (page - 1) * limit;
  return Number.isSafeInteger(offset) && offset < 2 ** 31 ? offset : null;
}

const scoresQuery = prepared((db, arg: (i: number) => number, n) =>
  db
    .selectFrom("scans")
    .select(["id", ...SCORE_NAMES])
    .where(
      "id",
      "in",
      Array.from({ length: n }, (_, i) => arg(i)),
    ),
);

/** Full score rows of the given scans, keyed by scan id; one compiled statement per number of scans. */
export async function scoresOfScans(db: DB, scanIds: number[]): Promise<Map<number, Scores>> {
  if (scanIds.length === 0) return new Map();
  const rows = await scoresQuery(db, scanIds, scanIds.length);
  return new Map(rows.map((r) => [Number(r.id), pickScores(r as Record<string, unknown>)]));
}

export const countAll = sql<number>`count(*)`;
