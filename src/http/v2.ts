import { type TObject, Type } from "@sinclair/typebox";
import {
  CATEGORIES,
  CategoryParams,
  CompareParams,
  ComparisonListSchema,
  CountryCountsSchema,
  checkScoreWindow,
  countryCounts,
  IdParams,
  isoTimestamp,
  LeaderboardMetaSchema,
  LeaderboardParams,
  LeaderboardSchema,
  ListUniversitiesParams,
  MethodologySchema,
  methodology,
  PageMetaSchema,
  RANKING_SORTS,
  RankingListSchema,
  RankingMetaSchema,
  RankingsParams,
  RegressionListSchema,
  RegressionsMetaSchema,
  RegressionsParams,
  regressionsWindow,
  ScanDetailSchema,
  ScanDiffParams,
  ScanDiffSchema,
  ScanIdParams,
  UniversityDetailSchema,
  UniversityListSchema,
  walkRanking,
  walkRegressions,
  walkUniversities,
} from "../../lib/index.ts";
import { ApiSchemaSchema, describeV2 } from "./api-schema.ts";
import type { AppContext } from "./context.ts";
import { explorerV2Routes } from "./explorer-routes.ts";
import { cursorList, cursorMeta } from "./paging/list-params.ts";
import { defineRoute, type RouteDefinition, type RouteSpec } from "./route.ts";
import { JsonBytes } from "./spliced-json/json-text.ts";
import { splicedCompare } from "./spliced-json/spliced-compare.ts";
import {
  leaderboardRowsJson,
  rankingRowsJson,
  splicedLeaderboard,
  splicedRankings,
} from "./spliced-json/spliced-rankings.ts";
import { regressionRowsJson, splicedRegressions } from "./spliced-json/spliced-regressions.ts";
import { splicedScan } from "./spliced-json/spliced-scan.ts";
import { splicedScanDiff } from "./spliced-json/spliced-scan-diff.ts";
import { splicedUniversities } from "./spliced-json/spliced-universities.ts";
import { splicedUniversityWithRanking } from "./spliced-json/spliced-university.ts";
import { walkPayload, walkRankingPayload } from "./walk-payload.ts";

/** v2 lists take only page, limit, search and country. */
const ListUniversitiesV2Params = Type.Pick(ListUniversitiesParams, ["page", "limit", "search", "country"]);

/** v2 rankings: v1's sorts and filters, 20 rows a page by default. */
const RankingsV2Params = Type.Object({
  ...RankingsParams.properties,
  limit: Type.Optional(Type.Integer({ ...RankingsParams.properties.limit, default: 20 })),
});

/** v2: the envelope `{api_version, success, timestamp, data, meta?}` over the same core as v1. */
export function v2Routes(ctx: AppContext): RouteSpec[] {
  const { db } = ctx;
  let methodologyText: JsonBytes | undefined;
  let schemaText: JsonBytes | undefined;
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
      ...cursorList(ListUniversitiesV2Params, { default: 20, anonymous: 100 }),
      response: UniversityListSchema,
      meta: cursorMeta(PageMetaSchema),
      handle: ({ query }) =>
        query.cursor === undefined
          ? splicedUniversities(db, query)
          : walkPayload({
              operation: "v2ListUniversities",
              query,
              after: ["string", "number"],
              walk: (from, limit) => walkUniversities(db, query, from, limit),
            }),
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
      handle: async ({ params }) => ({ data: await splicedUniversityWithRanking(db, params.id) }),
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
      ...cursorList(RankingsV2Params, { default: 20, anonymous: 100 }),
      response: RankingListSchema,
      meta: cursorMeta(RankingMetaSchema),
      handle: ({ query }) => {
        if (query.cursor === undefined) return splicedRankings(db, query);
        const { sort = "overall", country, min_score: min, max_score: max } = query;
        checkScoreWindow(min, max);
        const score = RANKING_SORTS[sort];
        return walkRankingPayload(db, {
          operation: "v2Rankings",
          query,
          score,
          walk: (profile, from, limit) =>
            walkRanking(db, { score, country: country?.toUpperCase(), profile, min, max }, from, limit),
          data: (rows) => rankingRowsJson(db, rows),
        });
      },
    }),
    route({
      path: "/api/v2/compare",
      operationId: "v2Compare",
      summary: "Latest scores of 2 to 10 universities side by side",
      description: "As v1 `/compare`: in the order given; an unknown id is a 404 naming it.",
      query: CompareParams,
      response: ComparisonListSchema,
      handle: async ({ query }) => ({ data: await splicedCompare(db, query) }),
    }),
    route({
      path: "/api/v2/scans/:id",
      operationId: "v2GetScan",
      summary: "One scan of any status, with every score when completed",
      params: ScanIdParams,
      response: ScanDetailSchema,
      handle: async ({ params }) => ({ data: await splicedScan(db, params.id) }),
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
      handle: async ({ query }) => ({ data: await splicedScanDiff(db, query) }),
    }),
    route({
      path: "/api/v2/methodology",
      operationId: "v2Methodology",
      summary: "How unirank scores: every check, the composites and their weights, the profiles",
      description:
        "Every check of every rubric (id, sub-score, label, maximum points, what earns them, the reference it " +
        "follows), the sub-scores and the part measuring each, the composites with their weights in " +
        "overall_score, the measurement parts a profile names and how rankings compare like with like, the " +
        "rubric versions. The same tables the rubrics score with (docs/scanner.md).",
      query: Type.Object({}),
      response: MethodologySchema,
      // The rubrics' tables do not change while the server runs: serialised once (docs/performance.md).
      handle: () => {
        methodologyText ??= new JsonBytes(JSON.stringify(methodology()));
        return { data: methodologyText };
      },
    }),
    route({
      path: "/api/v2/leaderboard/:category",
      operationId: "v2Leaderboard",
      summary: "Top universities of one category",
      description:
        "Ranked by the category's score in each university's latest completed scan (competition rank, ties " +
        "by university id); universities without that score are absent. `meta.score` names the score.",
      params: CategoryParams,
      ...cursorList(LeaderboardParams, { default: 10, anonymous: 100 }),
      response: LeaderboardSchema,
      meta: cursorMeta(LeaderboardMetaSchema),
      handle: ({ params, query }) => {
        if (query.cursor === undefined) return splicedLeaderboard(db, params.category, query);
        const score = CATEGORIES[params.category];
        return walkRankingPayload(db, {
          operation: "v2Leaderboard",
          query: { ...query, category: params.category },
          score,
          walk: (profile, from, limit) => walkRanking(db, { score, profile }, from, limit),
          data: (rows) => leaderboardRowsJson(db, rows),
          meta: { category: params.category, score },
        });
      },
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
      ...cursorList(RegressionsParams, { default: 20, anonymous: 100 }),
      response: RegressionListSchema,
      meta: cursorMeta(RegressionsMetaSchema),
      // Cached per second of the clock (the window's start has a one-second resolution): exact, and
      // concurrent requests share one computation.
      cacheScope: ({ now }) => isoTimestamp(now()),
      handle: ({ query, now }) => {
        if (query.cursor === undefined) return splicedRegressions(db, query, now);
        const { category = "overall", days = 30, min_drop = 5 } = query;
        const window = regressionsWindow(days, min_drop, now());
        // A walk keeps the window it began with: its start travels in the cursor, before the sort key.
        let since = window.since;
        return walkPayload({
          operation: "v2Regressions",
          query,
          after: ["string", "number", "number"],
          walk: async (from, limit) => {
            if (from) since = from.after[0] as string;
            const step = from && { ...from, after: from.after.slice(1) };
            const q = { category, threshold: window.threshold, since };
            const page = await walkRegressions(db, q, step, limit);
            return { ...page, next: page.next && { ...page.next, after: [since, ...page.next.after] } };
          },
          data: regressionRowsJson,
          meta: () => ({ category, score: CATEGORIES[category], days, min_drop, since }),
        });
      },
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
      // The route list is complete once the app is built: described once.
      handle: () => {
        schemaText ??= new JsonBytes(JSON.stringify(describeV2(routes, ctx.access ?? null)));
        return { data: schemaText };
      },
    }),
  );
  return routes;
}
