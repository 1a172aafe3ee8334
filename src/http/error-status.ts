import type { ErrorCode, ErrorDetail } from "../../lib/index.ts";

/** Codes only the HTTP layer gives: a method it does not serve, a spent rate limit, its own faults. */
export type HttpErrorCode = "METHOD_NOT_ALLOWED" | "RATE_LIMITED" | "INTERNAL" | "UNAVAILABLE";

/** Every code an API error body can carry: the core's and the HTTP layer's. */
export type ApiErrorCode = ErrorCode | HttpErrorCode;

/** An error the HTTP layer answers with (the core throws `UnirankError` with the codes it knows). */
export class HttpError extends Error {
  constructor(
    readonly code: HttpErrorCode,
    message: string,
    readonly details?: readonly ErrorDetail[],
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/** Error code → HTTP status, the one table every adapter uses. */
export const HTTP_STATUS: Record<ApiErrorCode, number> = {
  INVALID_PARAMETER: 400,
  INVALID_API_KEY: 401,
  INVALID_SIGNATURE: 401,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};
