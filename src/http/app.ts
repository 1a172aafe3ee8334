import { Elysia } from "elysia";
import {
  type ErrorDetail,
  isUnirankError,
  parseParams,
  type RawParams,
  UnirankError,
} from "../../lib/index.ts";
import type { AppContext } from "./context.ts";
import { healthRoute } from "./health.ts";
import { errorResponse, presentSuccess } from "./present.ts";
import { jsonResponse } from "./respond.ts";
import { pathMatcher, type RouteSpec, versionOf } from "./route.ts";
import { v1Routes } from "./v1.ts";

const ALLOW = "GET, HEAD, OPTIONS";
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Every route the app serves, in one list (OpenAPI and tests read it too). */
export function allRoutes(ctx: AppContext): RouteSpec[] {
  return [...v1Routes(ctx), healthRoute(ctx)];
}

function rawQuery(url: URL): RawParams {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** Parses path and query together so `details` names every bad parameter at once. */
function parseInputs(route: RouteSpec, rawPath: RawParams, url: URL) {
  const details: ErrorDetail[] = [];
  const parse = (schema: RouteSpec["query"], raw: RawParams) => {
    if (!schema) return {};
    try {
      return parseParams(schema, raw);
    } catch (e) {
      if (isUnirankError(e) && e.details) details.push(...e.details);
      else throw e;
      return {};
    }
  };
  const params = parse(route.params, rawPath);
  const query = parse(route.query, rawQuery(url));
  if (details.length > 0) {
    throw new UnirankError("INVALID_PARAMETER", details.map((d) => d.message).join("; "), details);
  }
  return { params, query };
}

export interface CreateAppOptions {
  /** Extra routes (v2, docs) mounted beside v1 and health. */
  routes?: RouteSpec[];
}

/** The unirank HTTP app: v1, health and any extra routes, with the cross-cutting rules of the contract. */
export function createApp(ctx: AppContext, options: CreateAppOptions = {}) {
  const routes = [...allRoutes(ctx), ...(options.routes ?? [])];
  const isKnownPath = pathMatcher(routes);
  const requestIds = new WeakMap<Request, string>();
  const requestId = (request: Request) => requestIds.get(request) ?? "";

  const finish = (request: Request, response: Response): Response => {
    response.headers.set("X-Request-Id", requestId(request));
    response.headers.set("Access-Control-Allow-Origin", "*");
    response.headers.set(
      "Access-Control-Expose-Headers",
      "X-Request-Id, ETag, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, Retry-After",
    );
    return response;
  };
  const fail = (request: Request, thrown: unknown, headers?: Record<string, string>) =>
    finish(request, errorResponse(ctx, request, versionOf(new URL(request.url).pathname), thrown, headers));

  const app = new Elysia({ name: "unirank" })
    .onRequest(({ request }) => {
      const incoming = request.headers.get("X-Request-Id");
      requestIds.set(request, incoming && SANE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID());
      const { pathname } = new URL(request.url);
      if (request.method === "OPTIONS") {
        const known = isKnownPath(pathname);
        const response = new Response(null, {
          status: known ? 204 : 404,
          headers: {
            Allow: ALLOW,
            "Access-Control-Allow-Methods": ALLOW,
            "Access-Control-Allow-Headers":
              request.headers.get("Access-Control-Request-Headers") ??
              "Authorization, X-API-Key, X-Timestamp, X-Signature, If-None-Match, X-Request-Id",
            "Access-Control-Max-Age": "86400",
          },
        });
        return finish(request, response);
      }
      if (request.method !== "GET" && request.method !== "HEAD") {
        if (isKnownPath(pathname)) {
          return fail(
            request,
            new UnirankError(
              "METHOD_NOT_ALLOWED",
              `${request.method} is not allowed; use GET, HEAD or OPTIONS`,
            ),
            { Allow: ALLOW },
          );
        }
        return fail(request, new UnirankError("NOT_FOUND", `No route for ${request.method} ${pathname}`));
      }
    })
    .onError(({ request, code, error }) => {
      if (code === "NOT_FOUND") {
        return fail(request, new UnirankError("NOT_FOUND", `No route for ${new URL(request.url).pathname}`));
      }
      return fail(request, error);
    });

  for (const route of routes) {
    const handler = async ({ request, params }: { request: Request; params: Record<string, string> }) => {
      try {
        const url = new URL(request.url);
        const inputs = parseInputs(route, params, url);
        const payload = await route.handle({ ...inputs, request });
        const body = presentSuccess(route.raw ? "none" : route.version, payload, ctx.clock());
        return finish(
          request,
          jsonResponse(request, JSON.stringify(body), {
            status: payload.status ?? 200,
            cache: route.cache ?? "public",
          }),
        );
      } catch (e) {
        return fail(request, e);
      }
    };
    app.get(route.path, handler);
    app.head(route.path, handler);
  }
  return app;
}

export type UnirankApp = ReturnType<typeof createApp>;
