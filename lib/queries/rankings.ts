import { invalidParameter } from "../errors.ts";
import type { RankingsParams } from "../params/operations.ts";
import type { DB } from "../schema/database.ts";
import { RANKING_SORTS } from "../scores/catalogue.ts";
import { chooseProfile, type ProfileChoice } from "./profiles.ts";
import { type RankedRow, rankPage } from "./rank.ts";
import { rankedDetailsOf } from "./ranked-details.ts";
import type { RankingEntry } from "./response-schemas.ts";
import type { Paged, PageMeta } from "./shapes.ts";

export type { RankingEntry } from "./response-schemas.ts";

/** Refuses a window whose lowest score is above its highest. */
export function checkScoreWindow(min: number | undefined, max: number | undefined): void {
  if (min !== undefined && max !== undefined && min > max) {
    throw invalidParameter([
      { param: "min_score", message: "min_score must not exceed max_score" },
      { param: "max_score", message: "max_score must not be below min_score" },
    ]);
  }
}

/** A ranking page's meta: the page, and the profile ranked with the universities per profile. */
export type RankingMeta = PageMeta & ProfileChoice;

/** One page of a ranking as ranks and university ids, with its meta; `rankings` adds each university's details. */
export async function rankingPage(
  db: DB,
  params: RankingsParams = {},
): Promise<{ rows: RankedRow[]; meta: RankingMeta }> {
  const { page = 1, limit = 50, country, min_score, max_score, sort = "overall" } = params;
  checkScoreWindow(min_score, max_score);
  const score = RANKING_SORTS[sort];
  const choice = await chooseProfile(db, score, params.profile);
  const { rows, total } = await rankPage(db, {
    score,
    country: country?.toUpperCase(),
    profile: choice.profile,
    min: min_score,
    max: max_score,
    page,
    limit,
  });
  return { rows, meta: { page, limit, total, ...choice } };
}

/**
 * Rankings from each university's latest completed scan, of one profile (the main one unless `profile` says
 * otherwise; docs/scores.md). `rank` is the competition rank among universities matching `country` and the
 * profile; `min_score`/`max_score` select a window without renumbering; `meta.total` counts the window.
 * A university whose details vanished between the ranking and their read (a concurrent write) is left out.
 */
export async function rankings(
  db: DB,
  params: RankingsParams = {},
): Promise<Paged<RankingEntry, RankingMeta>> {
  const { rows, meta } = await rankingPage(db, params);
  const details = await rankedDetailsOf(
    db,
    rows.map((r) => r.university_id),
  );
  const data: RankingEntry[] = [];
  for (const r of rows) {
    const d = details.get(r.university_id);
    if (d) data.push({ rank: r.rank, ...d.university, ...d.composites });
  }
  return { data, meta };
}
