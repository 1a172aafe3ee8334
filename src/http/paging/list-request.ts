import { invalidParameter } from "../../../lib/errors.ts";
import type { RawParams } from "../../../lib/index.ts";
import type { AccessGate } from "../access.ts";
import { wantsCsv } from "../csv/negotiate.ts";
import type { RouteSpec } from "../route.ts";
import { KEYED_MAX_LIMIT } from "./list-params.ts";

/**
 * The rules of a list request beyond its schema: `cursor` and `page` exclude each other; above the anonymous
 * maximum a `limit` needs an API key (on a server with access control). Takes `format` out of `query` (it picks
 * the representation; the payload and its cache entry are the same) and says whether the answer is CSV.
 */
export function listRequest(
  route: RouteSpec,
  request: Request,
  query: Record<string, unknown>,
  raw: RawParams,
  gate: AccessGate | undefined,
): { csv: boolean } {
  const format = query.format;
  if (format !== undefined) delete query.format;
  if (query.cursor !== undefined && raw.page !== undefined) {
    throw invalidParameter([
      { param: "page", message: "page cannot be given with cursor: a walk pages by cursor" },
    ]);
  }
  const max = route.list?.anonymousLimit;
  if (max !== undefined && gate !== undefined && !gate.keyed && (query.limit as number) > max) {
    throw invalidParameter([
      {
        param: "limit",
        message: `limit must be an integer from 1 to ${max} (up to ${KEYED_MAX_LIMIT} with an API key)`,
      },
    ]);
  }
  return { csv: wantsCsv(request, format) };
}
