import { Elysia } from "elysia";
import { currentGeneration } from "../../lib/db/generation.ts";
import {
  type ErrorDetail,
  isUnirankError,
  parseParams,
  type RawParams,
  UnirankError,
} from "../../lib/index.ts";
import { parseQueryString } from "../../lib/params/query-string.ts";
import type { AccessGate, PeerSource } from "./access.ts";
import { cacheKey, ResponseCache } from "./cache.ts";
import type { AppContext } from "./context.ts";
import { withDocs } from "./docs.ts";
import { explorerRoutes } from "./explorer.ts";
import { healthRoute } from "./health.ts";
import { errorResponse, serialise, v2Envelope } from "./present.ts";
import { etagOf, jsonResponse } from "./respond.ts";
import { type Payload, pathMatcher, type RouteSpec, splitTarget, targetOf, versionOf } from "./route.ts";
import { v1Routes } from "./v1.ts";
import { v2Routes } from "./v2.ts";

const ALLOW = "GET, HEAD, OPTIONS";
const EXPOSE =
  "X-Request-Id, ETag, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, Retry-After";
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Every route the app serves, in one list (OpenAPI and tests read it too). */
export function allRoutes(ctx: AppContext): RouteSpec[] {
  return withDocs([...v1Routes(ctx), ...v2Routes(ctx), healthRoute(ctx), ...explorerRoutes()], {
    version: ctx.version,
    access: ctx.access ?? null,
  });
}

/** Parses path and query together so `details` names every bad parameter at once. */
function parseInputs(route: RouteSpec, rawPath: RawParams, request: Request) {
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
  const query = parse(
    route.query,
    route.query ? parseQueryString(splitTarget(targetOf(request)).search) : {},
  );
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
  /** The client's `X-Request-Id` when sane, else a new UUID; one per request, made when first asked for. */
  const requestId = (request: Request) => {
    let id = requestIds.get(request);
    if (id === undefined) {
      const incoming = request.headers.get("X-Request-Id");
      id = incoming && SANE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
      requestIds.set(request, id);
    }
    return id;
  };

  /** Headers of every answer: the request id and CORS. */
  const common = (request: Request, extra?: Record<string, string>): Record<string, string> => ({
    ...extra,
    "X-Request-Id": requestId(request),
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": EXPOSE,
  });
  const finish = (request: Request, response: Response): Response => {
    for (const [name, value] of Object.entries(common(request))) response.headers.set(name, value);
    return response;
  };
  const fail = (request: Request, thrown: unknown, headers?: Record<string, string>) =>
    errorResponse(
      ctx,
      request,
      versionOf(inside(splitTarget(targetOf(request)).pathname)),
      thrown,
      common(request, headers),
    );

  /**
   * Whatever no GET or HEAD route took: a CORS preflight, another method on a known path (405) or an unknown path.
   * Handled where Elysia finds no route, so the GET path carries no request hook.
   */
  const unrouted = (request: Request): Response => {
    const { pathname } = splitTarget(targetOf(request));
    const known = isKnownPath(pathname);
    if (request.method === "OPTIONS") {
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
    if (known && request.method !== "GET" && request.method !== "HEAD") {
      return fail(
        request,
        new UnirankError("METHOD_NOT_ALLOWED", `${request.method} is not allowed; use GET, HEAD or OPTIONS`),
        { Allow: ALLOW },
      );
    }
    const what = request.method === "GET" || request.method === "HEAD" ? "" : `${request.method} `;
    return fail(request, new UnirankError("NOT_FOUND", `No route for ${what}${pathname}`));
  };

  const app = new Elysia({ name: "unirank", prefix }).onError(({ request, code, error }) => {
    if (code === "NOT_FOUND") return unrouted(request);
    return fail(request, error);
  });

  for (const route of routes) {
    const presentAs = route.raw ? "none" : route.version;
    const cacheable = cache !== null && (route.cache ?? "public") === "public" && !route.uncached;
    const render = (p: Payload): string => (route.contentType ? String(p.data) : serialise(presentAs, p));
    const respond = async (request: Request, params: Record<string, string>, gate?: AccessGate) => {
      try {
        await gate?.admit();
        const inputs = parseInputs(route, params, request);
        let payload: Payload;
        let body: string;
        let etag: string | undefined;
        if (cacheable) {
          // Read the generation before the data, so an entry is never newer-labelled than its data.
          const scope = route.cacheScope ? ` ${route.cacheScope({ ...inputs, request })}` : "";
          const key = cacheKey(`${route.version} ${route.path}`, inputs) + scope;
          const generation = await currentGeneration(ctx.db);
          // Single-flight: concurrent misses of one key share one computation.
          const resolved = await cache.resolve(key, generation, () => route.handle({ ...inputs, request }));
          payload = resolved.payload;
          let rendered = resolved.entry?.rendered.get(presentAs);
          if (rendered === undefined) {
            const text = render(payload);
            rendered = { body: text, etag: etagOf(text) };
            resolved.entry?.rendered.set(presentAs, rendered);
          }
          body = rendered.body;
          etag = rendered.etag;
        } else {
          payload = await route.handle({ ...inputs, request });
          body = render(payload);
        }
        // The v2 envelope's timestamp changes every second; the entity tag follows the rest only.
        const etagSource = presentAs === "v2" ? body : undefined;
        if (presentAs === "v2") body = v2Envelope(body, ctx.clock());
        return jsonResponse(request, body, {
          status: payload.status ?? 200,
          cache: route.cache ?? "public",
          contentType: route.contentType,
          headers: common(request, gate?.headers),
          etag,
          etagSource,
        });
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
