import { redactKeyMaterial } from "../../lib/access/api-key-format.ts";
import { type ErrorDetail, isUnirankError, UnirankError } from "../../lib/index.ts";
import { isoTimestamp } from "../../lib/time/format.ts";
import type { AppContext } from "./context.ts";
import { HTTP_STATUS } from "./error-status.ts";
import type { RequestContext } from "./request-context.ts";
import { jsonResponse } from "./respond.ts";
import type { ApiVersion, Payload } from "./route.ts";
import { jsonOf } from "./spliced-json/json-text.ts";

/**
 * Serialises a successful payload in the shape of its version: v1 `{success, data, meta?}`, raw routes their
 * data as is, and v2 the part of its envelope that follows the timestamp (`"data":…,"meta":…}`), which is the
 * same for every request of one payload; `v2Envelope` puts the timestamp in front.
 */
export function serialise(version: ApiVersion, payload: Payload): string {
  const meta = payload.meta === undefined ? "" : `,"meta":${JSON.stringify(payload.meta)}`;
  const data = jsonOf(payload.data);
  if (version === "v2") return `"data":${data}${meta}}`;
  if (version === "v1") return `{"success":true,"data":${data}${meta}}`;
  return data;
}

/** The whole v2 body: `{api_version, success, timestamp, data, meta?}` around a `serialise("v2", …)` tail. */
export function v2Envelope(tail: string, now: Date): string {
  return `{"api_version":"2.0","success":true,"timestamp":"${isoTimestamp(now)}",${tail}`;
}

export interface ErrorBody {
  code: string;
  message: string;
  details?: readonly ErrorDetail[];
}

export function presentError(version: ApiVersion, error: ErrorBody, now: Date): unknown {
  const err = {
    code: error.code,
    message: error.message,
    ...(error.details ? { details: error.details } : {}),
  };
  if (version === "v2") {
    return { api_version: "2.0", success: false, timestamp: isoTimestamp(now), data: null, error: err };
  }
  return { success: false, error: err };
}

/** Any thrown value → an error response; internal errors are logged and never leak their text. */
export function errorResponse(
  ctx: AppContext,
  rc: RequestContext,
  version: ApiVersion,
  thrown: unknown,
  headers: Record<string, string> = {},
): Response {
  let error: UnirankError;
  if (isUnirankError(thrown)) error = thrown;
  else {
    const unavailable = isStorageUnavailable(thrown);
    ctx.log("error", unavailable ? "storage unavailable" : "internal error", {
      error: thrown instanceof Error ? thrown.stack : String(thrown),
      path: redactKeyMaterial(rc.pathname),
    });
    error = unavailable
      ? new UnirankError("UNAVAILABLE", "Storage is unavailable; try again later")
      : new UnirankError("INTERNAL", "Internal error");
  }
  const body = presentError(version, error, ctx.clock());
  // An error may quote what was sent (a path, a parameter): key material in it is never echoed.
  return jsonResponse(rc.request, redactKeyMaterial(JSON.stringify(body)), {
    status: HTTP_STATUS[error.code],
    cache: "no-store",
    headers,
  });
}

function isStorageUnavailable(e: unknown): boolean {
  const text = e instanceof Error ? `${e.name} ${(e as { code?: string }).code ?? ""} ${e.message}` : "";
  return /SQLITE_(CANTOPEN|BUSY|IOERR|NOTADB|CORRUPT|READONLY|FULL)|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|Connection terminated|database .* does not exist|unable to open|timeout exceeded when trying to connect|\b(57P0[1-3]|53[0-9]00|08[0-9A-Z]{3})\b/i.test(
    text,
  );
}
