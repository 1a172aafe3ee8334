import type { TObject } from "@sinclair/typebox";
import {
  CategoryParams,
  CompareParams,
  ComparisonListSchema,
  CountryCountsSchema,
  compare,
  countryCounts,
  getScan,
  getUniversity,
  IdParams,
  LeaderboardMetaSchema,
  LeaderboardParams,
  LeaderboardSchema,
  ListUniversitiesV2Params,
  listUniversities,
  PageMetaSchema,
  RankingListSchema,
  RankingsV2Params,
  RegressionListSchema,
  RegressionsMetaSchema,
  RegressionsParams,
  regressions,
  ScanDetailSchema,
  ScanDiffParams,
  ScanDiffSchema,
  ScanIdParams,
  scanDiff,
  UniversityDetailSchema,
  UniversityListSchema,
  universityRanking,
} from "../../lib/index.ts";
import { isoTimestamp } from "../../lib/time/format.ts";
import { ApiSchemaSchema, describeV2 } from "./api-schema.ts";
import type { AppContext } from "./context.ts";
import { explorerV2Routes } from "./explorer-routes.ts";
import { defineRoute, type RouteDefinition, type RouteSpec } from "./route.ts";
import { splicedLeaderboard, splicedRankings } from "./spliced-json/spliced-rankings.ts";

/** v2: the envelope `{api_version, success, timestamp, data, meta?}` over the same core as v1. */
export function v2Routes(ctx: AppContext): RouteSpec[] {
  const { db } = ctx;
  const route = <P extends TObject | undefined = undefined, Q extends TObject | undefined = undefined>(
    r: Omit<RouteDefinition<P, Q>, "version" | "tags">,
  ): RouteSpec => defineRoute<P, Q>({ version: "v2", tags: ["v2"], ...r });
  const routes: RouteSpec[] = [
    route({
      path: "/api/v2/universities",
      operationId: "v2ListUniversities",
      summary: "List universities",
      description:
        "Sorted by name, ties by id. `search` matches name or domain ignoring case, accents and width.",
      query: ListUniversitiesV2Params,
      response: UniversityListSchema,
      meta: PageMetaSchema,
      handle: ({ query }) => listUniversities(db, query),
    }),
    route({
      path: "/api/v2/universities/:id",
      operationId: "v2GetUniversity",
      summary: "One university with its scan count, latest completed scan and overall rank",
      description:
        "`ranking` places the university by overall score among all ranked universities and within its " +
        "country, numbered as `/rankings` and `/rankings?country=` number them; null when it is not ranked.",
      params: IdParams,
      response: UniversityDetailSchema,
      handle: async ({ params }) => {
        const university = await getUniversity(db, params.id);
        return { data: { ...university, ranking: await universityRanking(db, university) } };
      },
    }),
    route({
      path: "/api/v2/countries",
      operationId: "v2Countries",
      summary: "Every country with universities: how many, and how many are ranked",
      description:
        "By country code. `ranked` counts those with an overall score in their latest completed scan.",
      response: CountryCountsSchema,
      handle: async () => ({ data: await countryCounts(db) }),
    }),
    route({
      path: "/api/v2/rankings",
      operationId: "v2Rankings",
      summary: "Universities ranked by a score of their latest completed scan",
      description:
        "Standard competition rank (1, 2, 2, 4), ties by university id; `sort`, `country`, `min_score` and `max_score` as in v1.",
      query: RankingsV2Params,
      response: RankingListSchema,
      meta: PageMetaSchema,
      handle: ({ query }) => splicedRankings(db, query),
    }),
    route({
      path: "/api/v2/compare",
      operationId: "v2Compare",
      summary: "Latest scores of 2 to 10 universities side by side",
      description: "As v1 `/compare`: in the order given; an unknown id is a 404 naming it.",
      query: CompareParams,
      response: ComparisonListSchema,
      handle: async ({ query }) => ({ data: await compare(db, query) }),
    }),
    route({
      path: "/api/v2/scans/:id",
      operationId: "v2GetScan",
      summary: "One scan of any status, with every score when completed",
      params: ScanIdParams,
      response: ScanDetailSchema,
      handle: async ({ params }) => ({ data: await getScan(db, params.id) }),
    }),
    route({
      path: "/api/v2/scan-diff",
      operationId: "v2ScanDiff",
      summary: "Score differences between two completed scans",
      description:
        "Every score measured on at least one side, `delta = b - a` (one decimal), largest |delta| first, then " +
        "catalogue order; a score measured on one side only has `delta: null`, comes last and counts as " +
        "`not_comparable`. Scans may belong to different universities; `a = b` is allowed. 404 names every " +
        "unknown or uncompleted scan. When both scans carry per-check evidence (`unirank scan`), `checks` lists " +
        "the rubric checks whose points changed, with both sides' points, maximum and detail; else it is null.",
      query: ScanDiffParams,
      response: ScanDiffSchema,
      handle: async ({ query }) => ({ data: await scanDiff(db, query) }),
    }),
    route({
      path: "/api/v2/leaderboard/:category",
      operationId: "v2Leaderboard",
      summary: "Top universities of one category",
      description:
        "Ranked by the category's score in each university's latest completed scan (competition rank, ties " +
        "by university id); universities without that score are absent. `meta.score` names the score.",
      params: CategoryParams,
      query: LeaderboardParams,
      response: LeaderboardSchema,
      meta: LeaderboardMetaSchema,
      handle: ({ params, query }) => splicedLeaderboard(db, params.category, query),
    }),
    route({
      path: "/api/v2/regressions",
      operationId: "v2Regressions",
      summary: "Recent score drops",
      description:
        "Universities whose latest completed scan, completed within the last `days` days, scores at least " +
        "`min_drop` points below their previous completed scan in the category's score; largest drop first, " +
        "ties by university id. Universities with one completed scan, or a score not measured on either " +
        "side, are left out. Drops are measured to one decimal and are always positive.",
      query: RegressionsParams,
      response: RegressionListSchema,
      meta: RegressionsMetaSchema,
      // Cached per second of the clock (the window's start has a one-second resolution): exact, and
      // concurrent requests share one computation.
      cacheScope: ({ now }) => isoTimestamp(now()),
      handle: ({ query, now }) => regressions(db, query, { clock: now }),
    }),
  ];
  routes.push(...explorerV2Routes(ctx, route));
  routes.push(
    route({
      path: "/api/v2/schema",
      operationId: "v2Schema",
      summary: "Machine-readable description of version 2",
      description: "Derived from the same route list and parameter schemas as `/openapi.json`.",
      response: ApiSchemaSchema,
      handle: () => ({ data: describeV2(routes, ctx.access ?? null) }),
    }),
  );
  return routes;
}
