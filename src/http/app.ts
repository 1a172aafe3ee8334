import { Type } from "@sinclair/typebox";
import { currentGenerations } from "../../lib/db/generation.ts";
import {
  type ErrorDetail,
  isUnirankError,
  parseParams,
  type RawParams,
  UnirankError,
} from "../../lib/index.ts";
import type { AccessGate } from "./access.ts";
import { cacheKey, ResponseCache } from "./cache.ts";
import type { ConnInfo } from "./conn-info.ts";
import type { AppContext } from "./context.ts";
import { csvTable } from "./csv/csv-table.ts";
import { listHeaders } from "./csv/list-headers.ts";
import { CSV_CONTENT_TYPE } from "./csv/negotiate.ts";
import { withDocs } from "./docs.ts";
import { HttpError } from "./error-status.ts";
import { explorerRoutes } from "./explorer.ts";
import { healthRoute } from "./health.ts";
import { listRequest, querySchemaOf, withKeyedHint } from "./list-request.ts";
import type { RequestObserver } from "./observer.ts";
import { errorResponse, serialise, v2Head } from "./present.ts";
import { RequestContext } from "./request-context.ts";
import { etagOf, jsonResponse } from "./respond.ts";
import { type ApiVersion, type HandlerInput, type Payload, type RouteSpec, versionOf } from "./route.ts";
import { canonicalPath, createRouter } from "./router.ts";
import { type AnswerBody, bodyText, prefixed } from "./spliced-json/answer-body.ts";
import { v1Routes } from "./v1.ts";
import { v2Routes } from "./v2.ts";

const ALLOW = "GET, HEAD, OPTIONS";
const EXPOSE =
  "X-Request-Id, ETag, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, Retry-After, Link, X-Total-Count, X-Next-Cursor, X-Unirank-Meta";
/** CORS headers of every answer. */
const CORS: Readonly<Record<string, string>> = Object.freeze({
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": EXPOSE,
});

/** Every route the app serves, in one list (OpenAPI and tests read it too). */
export function allRoutes(ctx: AppContext): RouteSpec[] {
  return withDocs([...v1Routes(ctx), ...v2Routes(ctx), healthRoute(ctx), ...explorerRoutes()], {
    version: ctx.version,
    access: ctx.access ?? null,
  });
}

/** Parses path and query together so `details` names every bad parameter at once. */
function parseInputs(route: RouteSpec, rawPath: RawParams, rc: RequestContext, gate: AccessGate | undefined) {
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
  const rawQuery = route.query ? rc.query : {};
  const params = parse(route.params, rawPath);
  const query = parse(querySchemaOf(route, gate), rawQuery);
  if (details.length > 0) {
    const named = withKeyedHint(route, details, gate);
    throw new UnirankError("INVALID_PARAMETER", named.map((d) => d.message).join("; "), named);
  }
  return { params, query, rawQuery };
}

export interface CreateAppOptions {
  /** Extra routes mounted beside the API's own (tests). */
  routes?: RouteSpec[];
  /**
   * Mount path (`/unirank`, embedding): every route is served under it. Request URLs keep it, so docs links,
   * HMAC-signed paths and audit entries are the paths clients see.
   */
  prefix?: string;
}

/** The unirank HTTP API as a Web-standard handler: `Request` in, `Response` out, on any runtime. */
export interface UnirankApp {
  /**
   * Answers one request; `conn` is what the hosting server knows of its connection (the socket peer), made by the
   * runtime's adapter (`bunConnInfo` on Bun).
   */
  handle(request: Request, conn?: ConnInfo): Promise<Response>;
  /** Every route, in the order OpenAPI lists them. */
  readonly routes: readonly RouteSpec[];
  /**
   * A 503 `UNAVAILABLE` in the shape of the request's API version, with `Connection: close` (a server draining);
   * the observer hears of it as of any answer (metrics, access log).
   */
  refuse(request: Request, message: string): Response;
}

/** The unirank HTTP app: v1, v2, health, docs and the explorer, with the cross-cutting rules of the contract. */
export function createApp(ctx: AppContext, options: CreateAppOptions = {}): UnirankApp {
  const routes = [...allRoutes(ctx), ...(options.routes ?? [])];
  const cache = ctx.cache === false ? null : (ctx.cache ?? new ResponseCache());
  const prefix = options.prefix ?? "";
  const router = createRouter(routes);
  /** The path inside the mount, or null for a path outside it. */
  const inside = (pathname: string): string | null => {
    if (prefix === "") return pathname;
    if (pathname === prefix) return "/";
    return pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length) : null;
  };

  /** The headers every answer of `route` carries: CORS and the route's own, one object per route. */
  const constants = new Map<RouteSpec, Readonly<Record<string, string>>>();
  for (const route of routes)
    if (route.headers) constants.set(route, Object.freeze({ ...CORS, ...route.headers }));
  const constantOf = (route: RouteSpec) => constants.get(route) ?? CORS;
  /**
   * An answer's own headers, in a new object: those of `first`, `second` and `third` (the later win) and the
   * request id.
   */
  const own = (
    rc: RequestContext,
    first?: Record<string, string>,
    second?: Record<string, string>,
    third?: Record<string, string>,
  ): Record<string, string> => {
    const headers: Record<string, string> = { ...first };
    if (second !== undefined) Object.assign(headers, second);
    if (third !== undefined) Object.assign(headers, third);
    headers["X-Request-Id"] = rc.requestId;
    return headers;
  };
  /** An error answer, in the shape of the route's version (of the path's, for a path that is no route). */
  const fail = (rc: RequestContext, thrown: unknown, headers?: Record<string, string>, route?: RouteSpec) => {
    const version =
      route && route.version !== "none" ? route.version : versionOf(inside(rc.pathname) ?? rc.pathname);
    return errorResponse(ctx, rc, version, thrown, own(rc, headers), CORS);
  };

  /** Whatever no GET or HEAD route takes: a CORS preflight, another method on a known path (405), an unknown path. */
  const unrouted = (rc: RequestContext, known: boolean): Response => {
    const method = rc.request.method;
    if (method === "OPTIONS") {
      return new Response(null, {
        status: known ? 204 : 404,
        headers: own(rc, CORS, {
          Allow: ALLOW,
          "Access-Control-Allow-Methods": ALLOW,
          "Access-Control-Allow-Headers":
            rc.request.headers.get("Access-Control-Request-Headers") ??
            "Authorization, X-API-Key, X-Timestamp, X-Signature, If-None-Match, X-Request-Id",
          "Access-Control-Max-Age": "86400",
        }),
      });
    }
    if (known) {
      return fail(
        rc,
        new HttpError("METHOD_NOT_ALLOWED", `${method} is not allowed; use GET, HEAD or OPTIONS`),
        { Allow: ALLOW },
      );
    }
    const what = method === "GET" || method === "HEAD" ? "" : `${method} `;
    return fail(rc, new UnirankError("NOT_FOUND", `No route for ${what}${rc.pathname}`));
  };

  const respond = async (
    route: RouteSpec,
    rc: RequestContext,
    rawParams: Record<string, string>,
    gate?: AccessGate,
  ): Promise<Response> => {
    let presentAs: string = route.raw ? "none" : route.version;
    const cacheable = cache !== null && (route.cache ?? "public") === "public" && !route.uncached;
    const render = (p: Payload): AnswerBody => {
      if (presentAs === "csv") return csvTable(route.response ?? Type.Array(Type.Unknown()), p.data);
      return route.contentType ? String(p.data) : serialise(presentAs as ApiVersion, p);
    };
    try {
      await gate?.admit();
      const inputs = parseInputs(route, rawParams, rc, gate);
      if (route.list && listRequest(rc.request, inputs.query, inputs.rawQuery).csv) presentAs = "csv";
      const input: HandlerInput = { ...inputs, request: rc.request, prefix, now: () => rc.now() };
      let payload: Payload;
      let body: AnswerBody;
      let etag: string | undefined;
      if (cacheable) {
        // Read the generation before the data, so an entry is never newer-labelled than its data.
        const scope = route.cacheScope ? ` ${route.cacheScope(input)}` : "";
        const key = cacheKey(`${route.version} ${route.path}`, inputs) + scope;
        const generation = (await currentGenerations(ctx.db)).data;
        // Single-flight: concurrent misses of one key share one computation.
        const resolved = await cache.resolve(key, generation, () => route.handle(input));
        payload = resolved.payload;
        let rendered = resolved.entry?.rendered.get(presentAs);
        if (rendered === undefined) {
          const text = bodyText(render(payload));
          rendered = { body: text, etag: etagOf(text) };
          resolved.entry?.rendered.set(presentAs, rendered);
        }
        body = rendered.body;
        etag = rendered.etag;
      } else {
        payload = await route.handle(input);
        body = render(payload);
        // A raw route's body is its text as the handler made it, tag included.
        if (presentAs === "none") etag = payload.etag;
      }
      // The v2 envelope's timestamp changes every second; the entity tag follows the rest only, which starts after
      // the envelope's ASCII head (as many bytes as characters).
      let etagFrom: number | undefined;
      if (presentAs === "v2") {
        const head = v2Head(ctx.clock());
        body = prefixed(head, body);
        etagFrom = head.length;
      }
      const csv = presentAs === "csv";
      return jsonResponse(rc.request, body, {
        status: payload.status ?? 200,
        cache: route.cache ?? "public",
        contentType: csv ? CSV_CONTENT_TYPE : route.contentType,
        constant: constantOf(route),
        headers: own(rc, gate?.headers, csv ? listHeaders(payload.meta, rc.pathname, rc.search) : undefined),
        etag,
        etagFrom,
        // A list's representation follows Accept as well as Accept-Encoding.
        vary: route.list ? "Accept, Accept-Encoding" : undefined,
      });
    } catch (e) {
      return fail(rc, e, gate?.headers, route);
    }
  };

  /** The route a request names and its parameters: undefined outside the mount, null for no route inside it. */
  const routeOf = (rc: RequestContext) => {
    const path = inside(canonicalPath(rc.pathname));
    return path === null ? undefined : router.matchCanonical(path);
  };

  const run = async (rc: RequestContext): Promise<Response> => {
    const found = routeOf(rc);
    if (found === undefined) return fail(rc, new UnirankError("NOT_FOUND", `No route for ${rc.pathname}`));
    const method = rc.request.method;
    if (found === null || (method !== "GET" && method !== "HEAD")) return unrouted(rc, found !== null);
    const { route, params } = found;
    rc.route = route.path;
    // Access control (keys, rate limits, signatures, audit) runs before parsing, on v1 and v2 only.
    const gate = route.version === "none" ? undefined : ctx.access?.open(rc, route);
    rc.gate = gate;
    const response = await respond(route, rc, params, gate);
    gate?.close(response);
    return response;
  };

  const observer = ctx.observer;
  /** Tells the observer of an answer given `started` (a `performance.now()`) ago. */
  const observe = (o: RequestObserver, rc: RequestContext, response: Response, started: number) => {
    const gate = rc.gate;
    o.observe({
      method: rc.request.method,
      route: rc.route,
      status: response.status,
      seconds: (performance.now() - started) / 1000,
      requestId: rc.requestId,
      keyId: gate?.keyId ?? null,
      rateLimited: gate?.rateLimited ?? null,
      clientIp: () => (gate ? gate.clientIp() : (ctx.access?.clientIp(rc) ?? rc.peer())),
    });
  };
  /** `run`, then the observer is told (only when there is one: no clock read otherwise). */
  const answer = (rc: RequestContext): Promise<Response> => {
    if (!observer) return run(rc);
    const started = performance.now();
    return run(rc).then((response) => {
      observe(observer, rc, response, started);
      return response;
    });
  };

  return {
    routes,
    handle: (request, conn) => answer(new RequestContext(request, ctx.clock, conn)),
    refuse: (request, message) => {
      const started = performance.now();
      const rc = new RequestContext(request, ctx.clock);
      const response = fail(rc, new HttpError("UNAVAILABLE", message), {
        Connection: "close",
        "Retry-After": "5",
      });
      if (observer) {
        // Counted and logged under the route the request names, as its answer would have been.
        rc.route = routeOf(rc)?.route.path ?? null;
        observe(observer, rc, response, started);
      }
      return response;
    },
  };
}
