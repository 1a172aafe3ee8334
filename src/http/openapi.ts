import { type TSchema, Type } from "@sinclair/typebox";
import {
  CATEGORY_NAMES,
  DEFAULT_KEY_RATE_LIMIT,
  LatestScoresSchema,
  PageMetaSchema,
  ScanSummarySchema,
  ScoresSchema,
  UniversityRefSchema,
  UniversitySchema,
} from "../../lib/index.ts";
import {
  type AccessFacts,
  API_TITLE,
  openApiPath,
  parametersOf,
  plainSchema,
  SIGNATURE_FORM,
  SIGNED_MESSAGE,
} from "./api-description.ts";
import { csvColumnsOf } from "./csv/csv-table.ts";
import { HTTP_STATUS } from "./error-status.ts";
import type { RouteSpec } from "./route.ts";

/**
 * The OpenAPI 3.1 document of every route, generated from the route list: the parameter schemas that validate
 * requests, the response schemas of `data`, each version's wrapper and error shape, and the security schemes.
 */

type Json = Record<string, unknown>;

const ErrorObject = Type.Object({
  code: Type.String({
    enum: Object.keys(HTTP_STATUS),
  }),
  message: Type.String(),
  details: Type.Optional(
    Type.Array(Type.Object({ param: Type.String(), message: Type.String() }), {
      description:
        "Every bad parameter (400), or the side(s) of a scan diff that are unknown or not completed (404)",
    }),
  ),
});

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const Timestamp = {
  type: "string",
  description: "ISO 8601 with offset",
  examples: ["2026-03-01T12:00:00+00:00"],
};

/** Schemas shown once under components and referenced wherever they occur. */
const NAMED: [string, TSchema][] = [
  ["Scores", ScoresSchema],
  ["LatestScores", LatestScoresSchema],
  ["University", UniversitySchema],
  ["UniversityRef", UniversityRefSchema],
  ["ScanSummary", ScanSummarySchema],
  ["PageMeta", PageMetaSchema],
];

function namer() {
  const byJson = new Map(NAMED.map(([name, schema]) => [JSON.stringify(plainSchema(schema)), name]));
  const convert = (node: unknown, top: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => convert(n, false));
    if (node === null || typeof node !== "object") return node;
    const name = top ? undefined : byJson.get(JSON.stringify(node));
    if (name) return ref(name);
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, convert(v, false)]));
  };
  return (schema: TSchema | Json, top = false) => convert(JSON.parse(JSON.stringify(schema)), top) as Json;
}

const ERRORS = {
  400: [
    "BadRequest",
    "INVALID_PARAMETER: a malformed, out-of-range, unknown-enum or missing parameter, or two different API keys",
  ],
  401: [
    "Unauthorized",
    "INVALID_API_KEY (unknown or revoked key) or INVALID_SIGNATURE (HMAC missing, stale, replayed or wrong)",
  ],
  404: ["NotFound", "NOT_FOUND: unknown id or path, or no completed scan where one is needed"],
  405: ["MethodNotAllowed", "METHOD_NOT_ALLOWED: only GET, HEAD and OPTIONS exist"],
  429: ["RateLimited", "RATE_LIMITED: the hourly limit of the client or key is exhausted"],
  500: ["Internal", "INTERNAL: an unexpected error (no stack trace or SQL is ever shown)"],
  503: ["Unavailable", "UNAVAILABLE: storage is unreachable"],
} as const;
type ErrorStatus = keyof typeof ERRORS;

const header = (description: string, schema: Json = { type: "string" }) => ({ description, schema });
const HEADERS = {
  "X-Request-Id": header("Echo of a sane incoming X-Request-Id, else a generated one"),
  ETag: header("Entity tag of the body; send it as If-None-Match to get 304"),
  "Cache-Control": header("`public, max-age=60` on data, `no-store` on health and errors"),
  "X-RateLimit-Limit": header("Requests allowed per window", { type: "integer" }),
  "X-RateLimit-Remaining": header("Requests left in the window", { type: "integer" }),
  "X-RateLimit-Reset": header("Unix time (seconds) when the window frees a request", { type: "integer" }),
  "Retry-After": header("Whole seconds to wait", { type: "integer" }),
  Allow: header("GET, HEAD, OPTIONS"),
  Vary: header("`Accept, Accept-Encoding` on lists (JSON or CSV by Accept), else `Accept-Encoding`"),
  "X-Total-Count": header("CSV answers: rows of the whole list (`meta.total`)", { type: "integer" }),
  "X-Next-Cursor": header(
    "CSV answers of a walk: the cursor of the next page (`meta.next_cursor`); absent after the last page",
  ),
  Link: header('CSV answers: `<target of the next page>; rel="next"` while there is one (RFC 8288)'),
  "X-Unirank-Meta": header(
    "CSV answers: the `meta` a JSON answer carries, as JSON (characters beyond ASCII escaped)",
  ),
};
const hdr = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });
const RATE_HEADERS = {
  "X-RateLimit-Limit": hdr("X-RateLimit-Limit"),
  "X-RateLimit-Remaining": hdr("X-RateLimit-Remaining"),
  "X-RateLimit-Reset": hdr("X-RateLimit-Reset"),
};

function errorResponses(prefix: "V1" | "V2"): Json {
  const out: Json = {};
  for (const [status, [name, description]] of Object.entries(ERRORS)) {
    const headers: Json = { "X-Request-Id": hdr("X-Request-Id") };
    if (status === "405") headers.Allow = hdr("Allow");
    if (status === "429") Object.assign(headers, RATE_HEADERS, { "Retry-After": hdr("Retry-After") });
    out[`${prefix}${name}`] = {
      description,
      headers,
      content: { "application/json": { schema: ref(`${prefix}Error`) } },
    };
  }
  return out;
}

const SECURITY = [{}, { ApiKeyHeader: [] }, { BearerAuth: [] }, { ApiKeyQuery: [] }];

function successBody(route: RouteSpec, schema: (s: TSchema | Json) => Json): Json {
  const data = route.response ? schema(route.response) : {};
  const meta = route.meta ? { meta: schema(route.meta) } : {};
  const required = ["success", "data", ...(route.meta ? ["meta"] : [])];
  if (route.version === "v2") {
    return {
      type: "object",
      required: ["api_version", "success", "timestamp", ...required.slice(1)],
      properties: {
        api_version: { const: "2.0" },
        success: { const: true },
        timestamp: Timestamp,
        data,
        ...meta,
      },
    };
  }
  return { type: "object", required, properties: { success: { const: true }, data, ...meta } };
}

/** A list's CSV body: RFC 4180 text whose header row names these columns. */
function csvSchema(route: RouteSpec): Json {
  const columns = route.response ? csvColumnsOf(route.response).map((c) => c.name) : [];
  return {
    type: "string",
    description: `RFC 4180, UTF-8, CRLF, a header row; null is an empty field. Columns: ${columns.join(", ")}`,
    examples: [`${columns.join(",")}\r\n`],
  };
}

function operation(route: RouteSpec, schema: (s: TSchema | Json) => Json): Json {
  const versioned = route.version === "v1" || route.version === "v2";
  const prefix = route.version === "v2" ? "V2" : "V1";
  const okHeaders: Json = { "X-Request-Id": hdr("X-Request-Id"), "Cache-Control": hdr("Cache-Control") };
  if (route.cache !== "no-store") okHeaders.ETag = hdr("ETag");
  if (versioned) Object.assign(okHeaders, RATE_HEADERS);
  const contentType = route.contentType?.split(";")[0] ?? "application/json";
  const body = route.contentType
    ? { type: "string" }
    : route.raw || !versioned
      ? route.response
        ? schema(route.response)
        : { type: "object" }
      : successBody(route, schema);
  const content: Json = { [contentType]: { schema: body } };
  if (route.list) {
    okHeaders.Vary = hdr("Vary");
    for (const name of ["X-Total-Count", "X-Next-Cursor", "Link", "X-Unirank-Meta"] as const)
      okHeaders[name] = hdr(name);
    content["text/csv"] = { schema: csvSchema(route) };
  }
  const responses: Json = {
    200: { description: "Success", headers: okHeaders, content },
  };
  if (route.cache !== "no-store")
    responses[304] = { description: "Not modified (If-None-Match matched the ETag)" };
  const statuses: ErrorStatus[] = versioned ? [400, 401, 404, 405, 429, 500, 503] : [405, 500];
  for (const status of statuses) {
    responses[status] = { $ref: `#/components/responses/${prefix}${ERRORS[status][0]}` };
  }
  if (route.path === "/health") {
    responses[503] = {
      description: "Unhealthy: the database check failed (same body as 200)",
      headers: { "X-Request-Id": hdr("X-Request-Id") },
      content: { "application/json": { schema: body } },
    };
  }
  const parameters: unknown[] = parametersOf(route).map((p) => ({ ...p, schema: schema(p.schema) }));
  if (route.version === "v2") {
    parameters.push(
      { $ref: "#/components/parameters/XTimestamp" },
      { $ref: "#/components/parameters/XSignature" },
    );
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: route.tags,
    ...(parameters.length > 0 ? { parameters } : {}),
    responses,
    security: versioned ? SECURITY : [],
  };
}

export interface OpenApiOptions {
  /** Service version (info.version). */
  version: string;
  /** Where the routes are mounted ("" at the root). */
  prefix?: string;
  /** The running server's access control; `null`: none. */
  access?: AccessFacts | null;
}

/** The access rules in a sentence or three, as the running server applies them. */
function accessText(access: AccessFacts | null): string {
  if (access === null) return "This server checks no API keys and limits no requests.";
  const anonymous =
    access.anonymousLimit > 0
      ? `Anonymous clients may make ${access.anonymousLimit} requests per hour per IP (v1 and v2; health and docs are exempt);`
      : "Anonymous requests are not limited on this server;";
  return [
    anonymous,
    `an API key (X-API-Key, Authorization: Bearer, or api_key) has its own limit (default ${DEFAULT_KEY_RATE_LIMIT} per hour).`,
    `v1 and v2 requests may be signed (keys that require it must): \`X-Timestamp\` and \`X-Signature: ${SIGNATURE_FORM}\` over \`${SIGNED_MESSAGE}\`.`,
  ].join(" ");
}

export function buildOpenApi(routes: readonly RouteSpec[], options: OpenApiOptions): Json {
  const schema = namer();
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    paths[openApiPath(route.path)] = { get: operation(route, schema) };
  }
  const components: Record<string, Json> = {};
  components.schemas = Object.fromEntries([
    ...NAMED.map(([name, s]) => [name, schema(s, true)]),
    ["ErrorObject", schema(ErrorObject)],
    [
      "V1Error",
      {
        type: "object",
        required: ["success", "error"],
        properties: { success: { const: false }, error: ref("ErrorObject") },
      },
    ],
    [
      "V2Error",
      {
        type: "object",
        required: ["api_version", "success", "timestamp", "data", "error"],
        properties: {
          api_version: { const: "2.0" },
          success: { const: false },
          timestamp: Timestamp,
          data: { type: "null" },
          error: ref("ErrorObject"),
        },
      },
    ],
  ]);
  components.responses = { ...errorResponses("V1"), ...errorResponses("V2") };
  components.headers = HEADERS;
  components.parameters = {
    XTimestamp: {
      name: "X-Timestamp",
      in: "header",
      required: false,
      description: "HMAC signing: unix time in seconds; accepted within 300 s of server time",
      schema: { type: "string", pattern: "^[0-9]{1,12}$" },
    },
    XSignature: {
      name: "X-Signature",
      in: "header",
      required: false,
      description: `HMAC signing (required for keys that require it): \`${SIGNATURE_FORM}\` over \`${SIGNED_MESSAGE}\`; each signature is accepted once`,
      schema: { type: "string", pattern: "^sha256=[0-9a-f]{64}$" },
    },
  };
  components.securitySchemes = {
    ApiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key", description: "API key in a header" },
    BearerAuth: { type: "http", scheme: "bearer", description: "API key as a Bearer token" },
    ApiKeyQuery: {
      type: "apiKey",
      in: "query",
      name: "api_key",
      description: "API key in the query (redacted in logs)",
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: API_TITLE,
      version: options.version,
      summary: "Read-only public data about universities whose web presence has been scanned",
      description: [
        "Two API versions side by side: v1 answers `{success, data, meta?}`; v2 wraps every answer in the envelope",
        '`{api_version: "2.0", success, timestamp, data, meta?}` (errors: `data: null` and `error`).',
        "Every operation is GET (HEAD and OPTIONS too). Unknown query parameters are ignored.",
        accessText(options.access ?? null),
        `Leaderboard categories: ${CATEGORY_NAMES.join(", ")}.`,
      ].join(" "),
      license: { name: "MIT", identifier: "MIT" },
    },
    // Where the paths are served, relative to the document: the mount point, or the root.
    servers: [{ url: options.prefix || "/" }],
    tags: [
      { name: "v1", description: "Version 1: `{success, data, meta?}`" },
      { name: "v2", description: "Version 2: the envelope `{api_version, success, timestamp, data, meta?}`" },
      { name: "health", description: "Service health, never cached or rate limited" },
      { name: "docs", description: "This document and its rendering" },
    ],
    paths,
    components,
  };
}
