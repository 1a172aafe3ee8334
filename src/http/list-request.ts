import type { TObject } from "@sinclair/typebox";
import type { RawParams } from "../../lib/index.ts";
import { type ErrorDetail, invalidParameter } from "../../lib/index.ts";
import type { AccessGate } from "./access.ts";
import { wantsCsv } from "./csv/negotiate.ts";
import { KEYED_LIMIT_HINT } from "./paging/list-params.ts";
import type { RouteSpec } from "./route.ts";

/** The query schema a request is parsed with: a list's anonymous one unless the request came with an API key. */
export function querySchemaOf(route: RouteSpec, gate: AccessGate | undefined): TObject | undefined {
  const anonymous = route.list?.anonymousQuery;
  return anonymous !== undefined && !gate?.keyed ? anonymous : route.query;
}

/** Errors of a request parsed with a list's anonymous schema: an out-of-range `limit` says a key allows more. */
export function withKeyedHint(
  route: RouteSpec,
  details: readonly ErrorDetail[],
  gate: AccessGate | undefined,
): readonly ErrorDetail[] {
  if (route.list?.anonymousQuery === undefined || gate?.keyed) return details;
  return details.map((d) => (d.param === "limit" ? { ...d, message: `${d.message}${KEYED_LIMIT_HINT}` } : d));
}

/**
 * The rules of a list request beyond its schema: `cursor` and `page` exclude each other. Takes `format` out of
 * `query` (it picks the representation; the payload and its cache entry are the same) and says whether the answer
 * is CSV.
 */
export function listRequest(
  request: Request,
  query: Record<string, unknown>,
  raw: RawParams,
): { csv: boolean } {
  const format = query.format;
  if (format !== undefined) delete query.format;
  if (query.cursor !== undefined && raw.page !== undefined) {
    throw invalidParameter([
      { param: "page", message: "page cannot be given with cursor: a walk pages by cursor" },
    ]);
  }
  return { csv: wantsCsv(request, format) };
}
