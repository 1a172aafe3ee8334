import type { ErrorCode } from "../../lib/index.ts";

/** Error code → HTTP status, the one table every adapter uses. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  INVALID_PARAMETER: 400,
  INVALID_API_KEY: 401,
  INVALID_SIGNATURE: 401,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};
