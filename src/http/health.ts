import { sharedRead } from "../../lib/db/shared-read.ts";
import { HealthSchema, health } from "../../lib/index.ts";
import type { AppContext } from "./context.ts";
import { etagOf } from "./respond.ts";
import type { Payload, RouteSpec } from "./route.ts";
import { JsonText } from "./spliced-json/json-text.ts";

/**
 * How long one run of the checks answers `/health`: the requests of that millisecond share its checks and its
 * text, as they share the core's database check (docs/performance.md).
 */
const SHARED_MS = 1;

export function healthRoute(ctx: AppContext): RouteSpec {
  const checked = sharedRead(async (c: AppContext): Promise<Payload> => {
    const body = await health(c.db, {
      version: c.version,
      hostChecks: c.hostChecks,
      minFreeDiskGb: c.minFreeDiskGb,
      clock: c.clock,
      scanner: c.scanner,
    });
    const text = JSON.stringify(body);
    return { data: new JsonText(text), status: body.status === "unhealthy" ? 503 : 200, etag: etagOf(text) };
  }, SHARED_MS);
  return {
    version: "none",
    path: "/health",
    operationId: "health",
    summary: "Service health with real checks (database, disk, logs, cache; scanner while it scans)",
    tags: ["health"],
    cache: "no-store",
    raw: true,
    response: HealthSchema,
    handle: () => checked(ctx),
  };
}
