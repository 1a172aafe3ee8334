import {
  type ErrorDetail,
  isoTimestamp,
  isUnirankError,
  redactKeyMaterial,
  StorageUnavailableError,
} from "../../lib/index.ts";
import type { AppContext } from "./context.ts";
import { type ApiErrorCode, HTTP_STATUS, HttpError } from "./error-status.ts";
import type { RequestContext } from "./request-context.ts";
import { jsonResponse } from "./respond.ts";
import type { ApiVersion, Payload } from "./route.ts";
import type { AnswerBody } from "./spliced-json/answer-body.ts";
import { JsonWriter, jsonOf } from "./spliced-json/json-text.ts";

/**
 * Serialises a successful payload in the shape of its version: v1 `{success, data, meta?}`, raw routes their
 * data as is, and v2 the part of its envelope that follows the timestamp (`"data":…,"meta":…}`), which is the
 * same for every request of one payload; `v2Head` goes in front of it.
 */
export function serialise(version: ApiVersion, payload: Payload): AnswerBody {
  const meta = payload.meta === undefined ? "" : `,"meta":${JSON.stringify(payload.meta)}`;
  const value = payload.data;
  // A value that writes itself stays a piece of its own (`AnswerBody`).
  if (value instanceof JsonWriter) {
    if (version === "v2") return ['"data":', value, `${meta}}`];
    if (version === "v1") return ['{"success":true,"data":', value, `${meta}}`];
    return [value];
  }
  const data = jsonOf(value);
  if (version === "v2") return `"data":${data}${meta}}`;
  if (version === "v1") return `{"success":true,"data":${data}${meta}}`;
  return data;
}

/**
 * The head of the whole v2 body, `{api_version, success, timestamp,`, put in front of a `serialise("v2", …)` tail.
 * It is ASCII, so the tail starts as many bytes in as its characters (the ETag hashes the tail's bytes, app.ts).
 */
export function v2Head(now: Date): string {
  return `{"api_version":"2.0","success":true,"timestamp":"${isoTimestamp(now)}",`;
}

export interface ErrorBody {
  code: ApiErrorCode;
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
  constant?: Readonly<Record<string, string>>,
): Response {
  let error: ErrorBody;
  if (isUnirankError(thrown) || thrown instanceof HttpError) error = thrown;
  else {
    // The database adapters say which of their errors are storage faults (StorageUnavailableError).
    const unavailable = thrown instanceof StorageUnavailableError;
    const cause = unavailable ? thrown.cause : thrown;
    ctx.log("error", unavailable ? "storage unavailable" : "internal error", {
      error: cause instanceof Error ? cause.stack : String(cause),
      path: redactKeyMaterial(rc.pathname),
    });
    error = unavailable
      ? new HttpError("UNAVAILABLE", "Storage is unavailable; try again later")
      : new HttpError("INTERNAL", "Internal error");
  }
  const body = presentError(version, error, ctx.clock());
  // An error may quote what was sent (a path, a parameter): key material in it is never echoed.
  return jsonResponse(rc.request, redactKeyMaterial(JSON.stringify(body)), {
    status: HTTP_STATUS[error.code],
    cache: "no-store",
    constant,
    headers,
  });
}
