import { type TObject, Type } from "@sinclair/typebox";
import {
  DistributionMetaSchema,
  DistributionParams,
  DistributionSchema,
  IdParams,
  isoTimestamp,
  PageMetaSchema,
  ScanHistoryParams,
  ScanHistorySchema,
  scoreDistribution,
  walkScanHistory,
} from "../../lib/index.ts";
import type { AppContext } from "./context.ts";
import { csvList, cursorList, cursorMeta } from "./paging/list-params.ts";
import type { RouteDefinition, RouteSpec } from "./route.ts";
import { splicedScanHistory } from "./spliced-json/spliced-history.ts";
import { createViewTokens } from "./view-tokens.ts";
import { walkPayload } from "./walk-payload.ts";

type V2Route = <P extends TObject | undefined = undefined, Q extends TObject | undefined = undefined>(
  r: Omit<RouteDefinition<P, Q>, "version" | "tags">,
) => RouteSpec;

/** The v2 operations the explorer reads beside the others: a university's scan history, score distributions. */
export function explorerV2Routes(ctx: AppContext, route: V2Route): RouteSpec[] {
  const { db } = ctx;
  // Without access control nothing is counted; tokens are still handed out so the explorer works the same.
  const fallback = createViewTokens();
  return [
    route({
      path: "/api/v2/explorer/view",
      operationId: "v2ExplorerView",
      summary: "Starts an explorer page view: a token for the page's own API calls",
      description:
        "Counts as one request against the anonymous limit. Sent as `X-Explorer-Token` on later anonymous " +
        "calls, the token admits at most `calls` of them within its lifetime without counting them again; " +
        "after that, or elsewhere, calls count as usual (see docs/explorer.md).",
      response: Type.Object({
        token: Type.String(),
        expires_at: Type.String({ description: "ISO 8601" }),
        calls: Type.Integer({ description: "API calls the token admits" }),
      }),
      cache: "no-store",
      uncached: true,
      countsEveryCall: true,
      handle: () => {
        const issued = ctx.access ? ctx.access.issueViewToken() : fallback.issue(ctx.clock());
        return {
          data: {
            token: issued.token,
            expires_at: isoTimestamp(new Date(issued.expires)),
            calls: issued.calls,
          },
        };
      },
    }),
    route({
      path: "/api/v2/universities/:id/history",
      operationId: "v2ScanHistory",
      summary: "A university's completed scans with overall and composite scores, oldest first",
      description:
        "Ties by scan id. 404 when the university does not exist; an empty page when it has no scan.",
      params: IdParams,
      ...cursorList(ScanHistoryParams, { default: 100, anonymous: 500 }),
      response: ScanHistorySchema,
      meta: cursorMeta(PageMetaSchema),
      handle: ({ params, query }) =>
        query.cursor === undefined
          ? splicedScanHistory(db, params.id, query)
          : walkPayload({
              operation: "v2ScanHistory",
              query: { ...query, id: params.id },
              after: ["string", "number"],
              walk: (from, limit) => walkScanHistory(db, params.id, from, limit),
            }),
    }),
    route({
      path: "/api/v2/distribution",
      operationId: "v2Distribution",
      summary: "How one score spreads over the latest completed scans, in equal bins",
      description:
        "Bins of width 100/bins over 0..100, bounds rounded to two decimals, each holding `from <= score < to` as " +
        "published (the last also 100). Universities " +
        "without the score count in `meta.not_measured`. `country` narrows to one country.",
      ...csvList(DistributionParams),
      response: DistributionSchema,
      meta: DistributionMetaSchema,
      handle: ({ query }) => scoreDistribution(db, query),
    }),
  ];
}
