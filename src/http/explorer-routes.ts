import {
  DistributionMetaSchema,
  DistributionParams,
  DistributionSchema,
  IdParams,
  PageMetaSchema,
  ScanHistoryParams,
  ScanHistorySchema,
  scanHistory,
  scoreDistribution,
} from "../../lib/index.ts";
import type { AppContext } from "./context.ts";
import type { RouteSpec } from "./route.ts";

type V2Route = (r: Omit<RouteSpec, "version" | "tags">) => RouteSpec;

/** The v2 operations the explorer reads beside the others: a university's scan history, score distributions. */
export function explorerV2Routes(ctx: AppContext, route: V2Route): RouteSpec[] {
  const { db } = ctx;
  return [
    route({
      path: "/api/v2/universities/:id/history",
      operationId: "v2ScanHistory",
      summary: "A university's completed scans with overall and composite scores, oldest first",
      description:
        "Ties by scan id. 404 when the university does not exist; an empty page when it has no scan.",
      params: IdParams,
      query: ScanHistoryParams,
      response: ScanHistorySchema,
      meta: PageMetaSchema,
      handle: ({ params, query }) => scanHistory(db, params.id as number, query as ScanHistoryParams),
    }),
    route({
      path: "/api/v2/distribution",
      operationId: "v2Distribution",
      summary: "How one score spreads over the latest completed scans, in equal bins",
      description:
        "Bins of width 100/bins over 0..100, each holding `from <= score < to` (the last also 100). Universities " +
        "without the score count in `meta.not_measured`. `country` narrows to one country.",
      query: DistributionParams,
      response: DistributionSchema,
      meta: DistributionMetaSchema,
      handle: ({ query }) => scoreDistribution(db, query as DistributionParams),
    }),
  ];
}
