import { Type } from "@sinclair/typebox";
import { CATEGORY_NAMES } from "../../lib/index.ts";
import { type AccessFacts, API_TITLE, describeAuth, openApiPath, parametersOf } from "./api-description.ts";
import type { RouteSpec } from "./route.ts";

const V2_PREFIX = "/api/v2";

/** `data` of `/api/v2/schema`. */
export const ApiSchemaSchema = Type.Object({
  title: Type.String(),
  version: Type.Literal("2.0"),
  server: Type.Literal(V2_PREFIX),
  paths: Type.Record(
    Type.String(),
    Type.Object({
      method: Type.Literal("GET"),
      operation_id: Type.String(),
      summary: Type.String(),
      parameters: Type.Array(
        Type.Object({
          name: Type.String(),
          in: Type.Union([Type.Literal("path"), Type.Literal("query")]),
          required: Type.Boolean(),
          description: Type.Optional(Type.String()),
          schema: Type.Object({}, { additionalProperties: true, description: "JSON Schema of the value" }),
        }),
      ),
    }),
    { description: "Every v2 path, relative to `server`" },
  ),
  auth: Type.Object(
    {},
    {
      additionalProperties: true,
      description: "Key locations, limits and HMAC scheme, as this server applies them",
    },
  ),
  categories: Type.Array(Type.String(), { description: "The 13 leaderboard categories" }),
  openapi: Type.String({ description: "Where the full OpenAPI 3.1 document is served" }),
  docs: Type.String({ description: "Where the documentation page is served" }),
});

/** The `/api/v2/schema` payload, from the v2 route list and the same parameter schemas that validate requests. */
export function describeV2(routes: readonly RouteSpec[], access: AccessFacts | null) {
  const paths: Record<string, unknown> = {};
  for (const route of routes) {
    if (route.version !== "v2") continue;
    paths[openApiPath(route.path.slice(V2_PREFIX.length))] = {
      method: "GET",
      operation_id: route.operationId,
      summary: route.summary,
      parameters: parametersOf(route),
    };
  }
  return {
    title: API_TITLE,
    version: "2.0" as const,
    server: V2_PREFIX,
    paths,
    auth: describeAuth(access),
    categories: [...CATEGORY_NAMES],
    openapi: "/openapi.json",
    docs: "/docs",
  };
}
