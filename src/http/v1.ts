import type { TObject } from "@sinclair/typebox";
import { Type } from "@sinclair/typebox";
import {
  ALL_PROFILES,
  CompareParams,
  ComparisonListSchema,
  ExportSchema,
  IdParams,
  LatestScoresSchema,
  ListUniversitiesParams,
  PageMetaSchema,
  RankingListSchema,
  RankingsParams,
  StatsSchema,
  stats,
  UniversityDetailSchema,
  UniversityListSchema,
} from "../../lib/index.ts";
import type { AppContext } from "./context.ts";
import { csvList } from "./paging/list-params.ts";
import { defineRoute, type RouteDefinition, type RouteSpec } from "./route.ts";
import { splicedCompare } from "./spliced-json/spliced-compare.ts";
import { splicedExport } from "./spliced-json/spliced-export.ts";
import { splicedRankings } from "./spliced-json/spliced-rankings.ts";
import { splicedUniversities } from "./spliced-json/spliced-universities.ts";
import { splicedUniversity, splicedUniversityScores } from "./spliced-json/spliced-university.ts";

/** v1's university: the core's detail without its latest scan. */
const UniversityV1DetailSchema = Type.Omit(UniversityDetailSchema, ["latest_scan", "ranking"]);

/** v1: plain `{success, data, meta?}` presenters over the core. */
export function v1Routes(ctx: AppContext): RouteSpec[] {
  const { db } = ctx;
  const route = <P extends TObject | undefined = undefined, Q extends TObject | undefined = undefined>(
    r: Omit<RouteDefinition<P, Q>, "version" | "tags">,
  ): RouteSpec => defineRoute<P, Q>({ version: "v1", tags: ["v1"], ...r });
  return [
    route({
      path: "/api/v1/universities",
      operationId: "v1ListUniversities",
      summary: "List universities",
      ...csvList(ListUniversitiesParams),
      response: UniversityListSchema,
      meta: PageMetaSchema,
      handle: ({ query }) => splicedUniversities(db, query),
    }),
    route({
      path: "/api/v1/universities/:id",
      operationId: "v1GetUniversity",
      summary: "One university with its number of completed scans",
      params: IdParams,
      response: UniversityV1DetailSchema,
      handle: async ({ params }) => ({ data: await splicedUniversity(db, params.id) }),
    }),
    route({
      path: "/api/v1/universities/:id/scores",
      operationId: "v1UniversityScores",
      summary: "Every score of the latest completed scan",
      params: IdParams,
      response: LatestScoresSchema,
      handle: async ({ params }) => ({ data: await splicedUniversityScores(db, params.id) }),
    }),
    route({
      path: "/api/v1/universities/:id/export",
      operationId: "v1ExportUniversity",
      summary: "University, latest scores, recommendations and scan history",
      params: IdParams,
      response: ExportSchema,
      // exported_at is the time of the request, so the answer is never reused.
      uncached: true,
      handle: async ({ params }) => ({ data: await splicedExport(db, params.id, ctx.clock) }),
    }),
    route({
      path: "/api/v1/rankings",
      operationId: "v1Rankings",
      summary: "Competition-ranked universities by their latest completed scan",
      ...csvList(RankingsParams),
      response: RankingListSchema,
      meta: PageMetaSchema,
      // v1 ranks every university unless `profile` narrows it, and its meta stays the page's (docs/scores.md).
      handle: async ({ query }) => {
        const { data, meta } = await splicedRankings(db, {
          ...query,
          profile: query.profile ?? ALL_PROFILES,
        });
        return { data, meta: { page: meta.page, limit: meta.limit, total: meta.total } };
      },
    }),
    route({
      path: "/api/v1/stats",
      operationId: "v1Stats",
      summary: "Platform statistics",
      query: Type.Object({}),
      response: StatsSchema,
      handle: async () => ({ data: await stats(db) }),
    }),
    route({
      path: "/api/v1/compare",
      operationId: "v1Compare",
      summary: "Latest scores of 2 to 10 universities side by side",
      ...csvList(CompareParams),
      response: ComparisonListSchema,
      handle: async ({ query }) => ({ data: await splicedCompare(db, query) }),
    }),
  ];
}
