import type { TObject, TSchema } from "@sinclair/typebox";
import { DEFAULT_KEY_RATE_LIMIT } from "../../lib/access/api-keys.ts";
import { RATE_WINDOW_SECONDS } from "../../lib/access/rate-limiter.ts";
import { SIGNATURE_SKEW_SECONDS } from "../../lib/access/request-signature.ts";
import type { RouteSpec } from "./route.ts";

/**
 * What both machine-readable descriptions (`/openapi.json` and `/api/v2/schema`) say about authentication and
 * parameters, derived from the route list and its TypeBox schemas so the two cannot disagree.
 */

export const API_TITLE = "unirank API";

/** The contract's defaults; the operator can change the limits (`serve --rate-limit`, `keys create --rate-limit`). */
export const AUTH = {
  anonymous: {
    allowed: true,
    limit: 100,
    window_seconds: RATE_WINDOW_SECONDS,
    per: "client IP (the socket peer; X-Forwarded-For only from trusted proxies)",
    exempt: ["/health", "/docs", "/openapi.json"],
  },
  api_key: {
    locations: [
      { in: "header", name: "X-API-Key", example: "X-API-Key: <API_KEY>" },
      { in: "header", name: "Authorization", example: "Authorization: Bearer <API_KEY>" },
      { in: "query", name: "api_key", example: "?api_key=<API_KEY>" },
    ],
    default_limit: DEFAULT_KEY_RATE_LIMIT,
    window_seconds: RATE_WINDOW_SECONDS,
    per: "key",
    rules: [
      "Use one key per request: two different keys are 400 INVALID_PARAMETER",
      "An unknown or revoked key is 401 INVALID_API_KEY, never downgraded to anonymous",
    ],
  },
  hmac: {
    applies_to: "v2 requests made with a key that requires signatures (optional for other keys)",
    headers: { timestamp: "X-Timestamp", signature: "X-Signature" },
    timestamp: "Unix time in seconds",
    algorithm: "HMAC-SHA256",
    signature: "sha256=<hex HMAC-SHA256 of the message, keyed with the key's signing secret>",
    message: "<timestamp>\\n<METHOD>\\n<path with query>",
    tolerance_seconds: SIGNATURE_SKEW_SECONDS,
    replay: "Each signature is accepted once",
  },
  rate_limit_headers: [
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "Retry-After (on 429)",
  ],
} as const;

/** `/api/v2/scans/:id` → `/api/v2/scans/{id}`. */
export const openApiPath = (path: string): string => path.replace(/:([A-Za-z_]+)/g, "{$1}");

/** A TypeBox schema as plain JSON Schema (TypeBox's symbol keys dropped). */
export const plainSchema = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema));

export interface ParameterObject {
  name: string;
  in: "path" | "query";
  required: boolean;
  description?: string;
  schema: Record<string, unknown>;
}

function parametersIn(where: "path" | "query", schema: TObject | undefined): ParameterObject[] {
  if (!schema) return [];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties as Record<string, TSchema>).map(([name, prop]) => {
    const { description, ...rest } = plainSchema(prop);
    return {
      name,
      in: where,
      required: where === "path" || required.has(name),
      ...(typeof description === "string" ? { description } : {}),
      schema: rest,
    };
  });
}

/** Path and query parameters of a route with their ranges, defaults and enums, exactly as they are validated. */
export const parametersOf = (route: RouteSpec): ParameterObject[] => [
  ...parametersIn("path", route.params),
  ...parametersIn("query", route.query),
];
