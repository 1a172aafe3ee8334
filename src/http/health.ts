import { HealthSchema, health } from "../../lib/index.ts";
import type { AppContext } from "./context.ts";
import type { RouteSpec } from "./route.ts";

export function healthRoute(ctx: AppContext): RouteSpec {
  return {
    version: "none",
    path: "/health",
    operationId: "health",
    summary: "Service health with real checks (database, disk, logs, cache; scanner while it scans)",
    tags: ["health"],
    cache: "no-store",
    raw: true,
    response: HealthSchema,
    handle: async () => {
      const body = await health(ctx.db, {
        version: ctx.version,
        hostChecks: ctx.hostChecks,
        minFreeDiskGb: ctx.minFreeDiskGb,
        clock: ctx.clock,
        scanner: ctx.scanner,
      });
      return { data: body, status: body.status === "unhealthy" ? 503 : 200 };
    },
  };
}
