import { Elysia } from "elysia";
import {
  type ErrorDetail,
  isUnirankError,
  parseParams,
  type RawParams,
  readGeneration,
  UnirankError,
} from "../../lib/index.ts";
import type { AccessGate, PeerSource } from "./access.ts";
import { cacheKey, ResponseCache } from "./cache.ts";
import type { AppContext } from "./context.ts";
import { withDocs } from "./docs.ts";
import { healthRoute } from "./health.ts";
import { errorResponse, presentSuccess } from "./present.ts";
import { jsonResponse } from "./respond.ts";
import { type Payload, pathMatcher, type RouteSpec, versionOf } from "./route.ts";
import { v1Routes } from "./v1.ts";
import { v2Routes } from "./v2.ts";

const ALLOW = "GET, HEAD, OPTIONS";
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Every route the app serves, in one list (OpenAPI and tests read it too). */
export function allRoutes(ctx: AppContext): RouteSpec[] {
  return withDocs([...v1Routes(ctx), ...v2Routes(ctx), healthRoute(ctx)], { version: ctx.version });
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
  /**
   * Mount path (`/unirank`, embedding): every route is served under it. Request URLs keep it, so docs links,
   * HMAC-signed paths and audit entries are the paths clients see.
   */
  prefix?: string;
}

/** The unirank HTTP app: v1, health and any extra routes, with the cross-cutting rules of the contract. */
export function createApp(ctx: AppContext, options: CreateAppOptions = {}) {
  const routes = [...allRoutes(ctx), ...(options.routes ?? [])];
  const cache = ctx.cache === false ? null : (ctx.cache ?? new ResponseCache());
  const prefix = options.prefix ?? "";
  const inside = (pathname: string) =>
    prefix && (pathname === prefix || pathname.startsWith(`${prefix}/`))
      ? pathname.slice(prefix.length)
      : pathname;
  const matchesRoute = pathMatcher(routes);
  const isKnownPath = (pathname: string) => matchesRoute(inside(pathname));
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
    finish(
      request,
      errorResponse(ctx, request, versionOf(inside(new URL(request.url).pathname)), thrown, headers),
    );

  const app = new Elysia({ name: "unirank", prefix })
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
    const respond = async (request: Request, params: Record<string, string>, gate?: AccessGate) => {
      try {
        await gate?.admit();
        const url = new URL(request.url);
        const inputs = parseInputs(route, params, url);
        const presentAs = route.raw ? "none" : route.version;
        const cacheable = cache !== null && (route.cache ?? "public") === "public" && !route.uncached;
        const render = (p: Payload) =>
          route.contentType ? String(p.data) : JSON.stringify(presentSuccess(presentAs, p, ctx.clock()));
        let body: string | undefined;
        let payload: Payload;
        if (cacheable) {
          // Read the generation before the data, so an entry is never newer-labelled than its data.
          const scope = route.cacheScope ? ` ${route.cacheScope({ ...inputs, request })}` : "";
          const key = cacheKey(`${route.version} ${route.path}`, inputs) + scope;
          const generation = await readGeneration(ctx.db);
          // Single-flight: concurrent misses of one key share one computation.
          const resolved = await cache.resolve(key, generation, () => route.handle({ ...inputs, request }));
          payload = resolved.payload;
          const entry = resolved.entry;
          // v2 envelopes carry a timestamp; other presentations are the same every time.
          body = presentAs === "v2" ? undefined : entry?.bodies.get(presentAs);
          if (body === undefined) {
            body = render(payload);
            if (presentAs !== "v2") entry?.bodies.set(presentAs, body);
          }
        } else {
          payload = await route.handle({ ...inputs, request });
          body = render(payload);
        }
        return finish(
          request,
          jsonResponse(request, body, {
            status: payload.status ?? 200,
            cache: route.cache ?? "public",
            contentType: route.contentType,
            headers: gate?.headers,
            // The v2 envelope's timestamp changes every second; the entity tag follows the payload only.
            etagSource: presentAs === "v2" ? `v2 ${JSON.stringify([payload.data, payload.meta])}` : undefined,
          }),
        );
      } catch (e) {
        return fail(request, e, gate?.headers);
      }
    };
    // Access control (keys, rate limits, signatures, audit) runs before parsing, on v1 and v2 only.
    const handler = async ({
      request,
      params,
      server,
    }: {
      request: Request;
      params: Record<string, string>;
      server?: PeerSource | null;
    }) => {
      const gate = route.version === "none" ? undefined : ctx.access?.open(request, route.version, server);
      const response = await respond(request, params, gate);
      gate?.close(response);
      return response;
    };
    app.get(route.path, handler);
    app.head(route.path, handler);
  }
  return app;
}

export type UnirankApp = ReturnType<typeof createApp>;
