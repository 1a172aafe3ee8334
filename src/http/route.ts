import type { TObject, TSchema } from "@sinclair/typebox";

export type ApiVersion = "v1" | "v2" | "none";

/** What a handler returns: the payload and, for lists, the page meta. */
export interface Payload {
  data: unknown;
  meta?: unknown;
  /** Overrides 200 (health answers 503 when unhealthy). */
  status?: number;
}

export interface HandlerInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  request: Request;
}

/** One GET operation: its path, schemas (validation, OpenAPI, /schema) and handler. */
export interface RouteSpec {
  version: ApiVersion;
  /** Elysia-style path, e.g. `/api/v1/universities/:id`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: TObject;
  query?: TObject;
  /** Schema of `data` on success, for OpenAPI. */
  response?: TSchema;
  /** Schema of `meta` on success, for operations that return one (lists). */
  meta?: TSchema;
  /** `no-store` for health; data is `public, max-age=60`. */
  cache?: "public" | "no-store";
  /** Served as is (health, openapi.json): no version wrapper. */
  raw?: boolean;
  /** A non-JSON raw route (docs page and assets): `data` is the body text, sent with this content type. */
  contentType?: string;
  /**
   * Never answered from the response cache: the payload depends on the time of each request (export),
   * or needs no database at all (docs, which must not fail when storage does).
   */
  uncached?: boolean;
  /**
   * What else than parameters and data the payload depends on (regressions: the current second of the
   * clock), added to the cache key: an entry is reused only while this is unchanged.
   */
  cacheScope?: (input: HandlerInput) => string;
  handle(input: HandlerInput): Promise<Payload> | Payload;
}

/** Matches request paths against route paths, tolerating a trailing slash. */
export function pathMatcher(routes: readonly { path: string }[]): (pathname: string) => boolean {
  const patterns = routes.map(
    (r) => new RegExp(`^${r.path.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z_]+/g, "[^/]+")}/?$`),
  );
  return (pathname) => patterns.some((p) => p.test(pathname));
}

export function versionOf(pathname: string): ApiVersion {
  if (pathname === "/api/v2" || pathname.startsWith("/api/v2/")) return "v2";
  return "v1";
}

/** The request target as sent (path and query), which is what a client signs; no URL parser needed. */
function requestTarget(url: string): string {
  const scheme = url.indexOf("://");
  const slash = url.indexOf("/", scheme < 0 ? 0 : scheme + 3);
  if (slash < 0) return "/";
  const hash = url.indexOf("#", slash);
  return hash < 0 ? url.slice(slash) : url.slice(slash, hash);
}

/** Path and query string (without `?`) of a request target. */
export function splitTarget(target: string): { pathname: string; search: string } {
  const question = target.indexOf("?");
  if (question < 0) return { pathname: target, search: "" };
  return { pathname: target.slice(0, question), search: target.slice(question + 1) };
}

const targets = new WeakMap<Request, string>();

/** A request's target, read from `request.url` once per request: every read of that getter makes a new string. */
export function targetOf(request: Request): string {
  let target = targets.get(request);
  if (target === undefined) {
    target = requestTarget(request.url);
    targets.set(request, target);
  }
  return target;
}

/**
 * The request as the router must see it. Elysia finds the path in `request.url` by skipping 11 characters
 * (`http://` and a host of at least four), so a short Host header (`x`, `api:80`) or none at all (HTTP/1.0:
 * Bun then gives the bare target as the URL) would move the path it routes by. Such a request is remade with
 * the same target under a fixed origin; every other request is passed as is (two `indexOf`, no allocation).
 * Routing then depends on the request target only, whatever the Host header holds. Only GET and HEAD are
 * routed by Elysia; every other method is answered from `targetOf`, which finds the path itself.
 */
export function routable(request: Request): Request {
  const url = request.url;
  const scheme = url.indexOf("://");
  const start = scheme < 0 ? url.indexOf("/") : url.indexOf("/", scheme + 3);
  if (scheme >= 0 && (start < 0 || start >= 11)) return request;
  if (request.method !== "GET" && request.method !== "HEAD") return request;
  const target = start < 0 ? "/" : url.slice(start);
  return new Request(`http://localhost${target}`, { method: request.method, headers: request.headers });
}
