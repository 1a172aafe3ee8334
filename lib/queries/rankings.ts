import { invalidParameter } from "../errors.ts";
import type { RankingsParams } from "../params/operations.ts";
import type { DB } from "../schema/database.ts";
import { RANKING_SORTS } from "../scores/catalogue.ts";
import type { JsonText } from "./json-text.ts";
import { rankPage } from "./rank.ts";
import { rankedRowsJson, textAt } from "./ranked-rows.ts";
import type { Paged, PageMeta } from "./shapes.ts";

export interface RankingEntry {
  rank: number;
  id: number;
  domain: string;
  name: string;
  country: string;
  overall_score: number | null;
  webometrics_score: number | null;
  technical_score: number | null;
  research_score: number | null;
  presence_score: number | null;
}

/**
 * `rankings` as the HTTP API sends it: the page's rows are spliced from texts serialised once per data generation.
 */
export async function rankingsJson(
  db: DB,
  params: RankingsParams = {},
): Promise<{ data: JsonText; meta: PageMeta }> {
  const { page = 1, limit = 50, country, min_score, max_score, sort = "overall" } = params;
  if (min_score !== undefined && max_score !== undefined && min_score > max_score) {
    throw invalidParameter([
      { param: "min_score", message: "min_score must not exceed max_score" },
      { param: "max_score", message: "max_score must not be below min_score" },
    ]);
  }
  const { rows, total } = await rankPage(db, {
    score: RANKING_SORTS[sort],
    country: country?.toUpperCase(),
    min: min_score,
    max: max_score,
    page,
    limit,
  });
  const meta = { page, limit, total };
  const data = await rankedRowsJson(
    db,
    rows,
    (r, d, slot) => `{"rank":${r.rank},${textAt(d.university, slot)}${textAt(d.composites, slot)}`,
  );
  return { data, meta };
}

/**
 * Rankings from each university's latest completed scan. `rank` is the competition rank among universities
 * matching `country`; `min_score`/`max_score` select a window without renumbering; `meta.total` counts the window.
 */
export async function rankings(db: DB, params: RankingsParams = {}): Promise<Paged<RankingEntry>> {
  const { data, meta } = await rankingsJson(db, params);
  return { data: JSON.parse(data.text) as RankingEntry[], meta };
}
