import type { TObject, TSchema } from "@sinclair/typebox";
import { DEFAULT_KEY_RATE_LIMIT, RATE_WINDOW_SECONDS, SIGNATURE_SKEW_SECONDS } from "../../lib/index.ts";
import type { RouteSpec } from "./route.ts";

/**
 * What both machine-readable descriptions (`/openapi.json` and `/api/v2/schema`) say about authentication and
 * parameters, derived from the route list and its TypeBox schemas so the two cannot disagree.
 */

export const API_TITLE = "unirank API";

export const SIGNATURE_FORM = "sha256=<hex HMAC-SHA256 of the message, keyed with the key's signing secret>";
export const SIGNED_MESSAGE = "<timestamp>\\n<METHOD>\\n<path with query>";

/** What a description needs to know about the running server's access control. */
export interface AccessFacts {
  /** Anonymous requests per rolling hour per client IP; 0 = no limit. */
  anonymousLimit: number;
}

/**
 * Authentication and limits as the running server applies them: `null` access means none at all (an embedding
 * with `access: false`: keys are not read and nothing is limited). `anonymous.limit` is `null` when anonymous
 * requests are not limited (`serve --rate-limit 0`). Signatures are checked on v1 and v2 alike.
 */
export function describeAuth(access: AccessFacts | null) {
  const anonymousLimit = access && access.anonymousLimit > 0 ? access.anonymousLimit : null;
  return {
    enabled: access !== null,
    anonymous: {
      allowed: true,
      limit: anonymousLimit,
      window_seconds: RATE_WINDOW_SECONDS,
      per: "client IP (the socket peer; X-Forwarded-For only from trusted proxies)",
      exempt: ["/health", "/docs", "/openapi.json"],
    },
    api_key: access
      ? {
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
            "Authorization in another form than Bearer (Basic, a bare key) is 401 INVALID_API_KEY",
          ],
        }
      : null,
    hmac: access
      ? {
          applies_to:
            "v1 and v2 requests made with a key that requires signatures (other keys' signatures are not checked)",
          headers: { timestamp: "X-Timestamp", signature: "X-Signature" },
          timestamp: "Unix time in seconds",
          algorithm: "HMAC-SHA256",
          signature: SIGNATURE_FORM,
          message: SIGNED_MESSAGE,
          target:
            "The target as the server reads it: dot segments resolved and characters outside the URL syntax " +
            "percent-encoded (WHATWG URL), e.g. /api/v2/universities/1/../2?x= is signed as /api/v2/universities/2?x=",
          tolerance_seconds: SIGNATURE_SKEW_SECONDS,
          replay: "Each signature is accepted once",
        }
      : null,
    rate_limit_headers: [
      "X-RateLimit-Limit",
      "X-RateLimit-Remaining",
      "X-RateLimit-Reset",
      "Retry-After (on 429)",
    ],
  };
}

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
