import { invalidParameter } from "../errors.ts";
import type { RankingsParams } from "../params/operations.ts";
import type { DB } from "../schema/database.ts";
import { RANKING_SORTS } from "../scores/catalogue.ts";
import { prepared } from "./prepared.ts";
import { rankPage } from "./rank.ts";
import type { Paged } from "./shapes.ts";

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

const num = (v: unknown) => (v == null ? null : Number(v));

/** Details of a page of ranked universities; one compiled statement per page length. */
const detailsQuery = prepared((db, arg: (i: number) => number, n) =>
  db
    .selectFrom("latest_scans as l")
    .innerJoin("universities as u", "u.id", "l.university_id")
    .select([
      "u.id",
      "u.domain",
      "u.name",
      "u.country",
      "l.overall_score",
      "l.webo_composite_score",
      "l.tech_composite_score",
      "l.research_composite_score",
      "l.presence_composite_score",
    ])
    .where(
      "l.university_id",
      "in",
      Array.from({ length: n }, (_, i) => arg(i)),
    ),
);

/**
 * Rankings from each university's latest completed scan. `rank` is the competition rank among universities
 * matching `country`; `min_score`/`max_score` select a window without renumbering; `meta.total` counts the window.
 */
export async function rankings(db: DB, params: RankingsParams = {}): Promise<Paged<RankingEntry>> {
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
  if (rows.length === 0) return { data: [], meta: { page, limit, total } };
  const ids = rows.map((r) => r.university_id);
  const details = await detailsQuery(db, ids, ids.length);
  const byId = new Map(details.map((d) => [Number(d.id), d]));
  const data = rows.flatMap((r) => {
    const d = byId.get(r.university_id);
    if (!d) return [];
    return [
      {
        rank: r.rank,
        id: r.university_id,
        domain: d.domain,
        name: d.name,
        country: d.country,
        overall_score: num(d.overall_score),
        webometrics_score: num(d.webo_composite_score),
        technical_score: num(d.tech_composite_score),
        research_score: num(d.research_composite_score),
        presence_score: num(d.presence_composite_score),
      },
    ];
  });
  return { data, meta: { page, limit, total } };
}
