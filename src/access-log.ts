import type { RequestObserver } from "./http/observer.ts";
import type { LogFunction } from "./logger.ts";

/**
 * The access log: one `request` line per answer, with the route's template rather than the path sent (a query
 * string may hold an API key), the client's address and the admitted key's id; never a key, secret or signature.
 */
export function accessLog(log: LogFunction): RequestObserver {
  return {
    observe(r) {
      log("info", "request", {
        method: r.method,
        route: r.route,
        status: r.status,
        duration_ms: Math.round(r.seconds * 100_000) / 100,
        client: r.clientIp() ?? null,
        key_id: r.keyId,
        request_id: r.requestId,
      });
    },
  };
}
