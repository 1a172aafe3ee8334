import type { RequestObserver } from "./http/observer.ts";
import type { Logger } from "./logger.ts";

/** Printable ASCII without `"` or `\`: a JSON string as it stands (methods, route templates, addresses, ids). */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const text = (value: string | null | undefined) =>
  value == null ? "null" : PLAIN.test(value) ? `"${value}"` : JSON.stringify(value);

/** The time of a line: made once per millisecond, shared by the lines of that millisecond. */
let lastMs = 0;
let lastIso = "";
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

/**
 * The access log: one `request` line per answer, with the route's template rather than the path sent (a query
 * string may hold an API key), the client's address and the admitted key's id; never a key, secret or signature.
 * The line is the logger's (level, time, message first) but serialised here, for speed (docs/performance.md).
 */
export function accessLog(log: Pick<Logger, "writeLine">): RequestObserver {
  return {
    observe(r) {
      log.writeLine(
        "info",
        `{"level":"info","time":"${isoNow()}","message":"request","method":${text(r.method)},"route":${text(r.route)},"status":${r.status},"duration_ms":${Math.round(r.seconds * 100_000) / 100},"client":${text(r.clientIp())},"key_id":${r.keyId ?? "null"},"request_id":${text(r.requestId)}}`,
      );
    },
  };
}
