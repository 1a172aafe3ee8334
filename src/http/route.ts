import type { Static, TObject, TSchema } from "@sinclair/typebox";
import type { ListSpec } from "./paging/list-params.ts";

export type ApiVersion = "v1" | "v2" | "none";

/** What a handler returns: the payload and, for lists, the page meta. */
export interface Payload {
  data: unknown;
  meta?: unknown;
  /** Overrides 200 (health answers 503 when unhealthy). */
  status?: number;
  /**
   * The entity tag of a raw route's body, where the handler made it already: a text several answers share is
   * hashed once (`/health`, whose checks the requests of a millisecond share).
   */
  etag?: string;
}

/** What a handler is given: its parsed parameters and the request's own facts. */
export interface HandlerInput<P = Record<string, unknown>, Q = Record<string, unknown>> {
  params: P;
  query: Q;
  request: Request;
  /** The path the API is mounted under (`""` at the root, `/unirank` embedded). */
  prefix: string;
  /** The request's one reading of the clock (the cache key and the handler see the same time). */
  now(): Date;
}

/** One GET operation as the app holds it: its path, schemas (validation, OpenAPI, /schema) and handler. */
export interface RouteSpec {
  version: ApiVersion;
  /** Path with `:name` segments, e.g. `/api/v1/universities/:id`. */
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
  /** Every call is counted against the rate limit, never admitted by an explorer view token (the token request). */
  countsEveryCall?: boolean;
  /** Served as is (health, openapi.json): no version wrapper. */
  raw?: boolean;
  /** A non-JSON raw route (docs page and assets): `data` is the body text, sent with this content type. */
  contentType?: string;
  /** Headers of its own on every answer (the HTML pages' security headers). */
  headers?: Record<string, string>;
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
  /** A list: answers CSV too (`format=csv`, `Accept: text/csv`), and may cap anonymous page sizes. */
  list?: ListSpec;
  handle(input: HandlerInput): Promise<Payload> | Payload;
}

type Parsed<S extends TObject | undefined> = S extends TObject ? Static<S> : Record<string, never>;

/** A route as written: its handler and cache scope receive the static types of its own parameter schemas. */
export interface RouteDefinition<P extends TObject | undefined, Q extends TObject | undefined>
  extends Omit<RouteSpec, "params" | "query" | "handle" | "cacheScope"> {
  params?: P;
  query?: Q;
  cacheScope?: (input: HandlerInput<Parsed<P>, Parsed<Q>>) => string;
  handle(input: HandlerInput<Parsed<P>, Parsed<Q>>): Promise<Payload> | Payload;
}

/**
 * A typed route. The pipeline validates path and query against `params` and `query` before the handler runs, so
 * the handler may take them as `Static<P>` and `Static<Q>`: this is the one place that widening is asserted.
 */
export function defineRoute<
  P extends TObject | undefined = undefined,
  Q extends TObject | undefined = undefined,
>(definition: RouteDefinition<P, Q>): RouteSpec {
  return definition as unknown as RouteSpec;
}

export function versionOf(pathname: string): ApiVersion {
  if (pathname === "/api/v2" || pathname.startsWith("/api/v2/")) return "v2";
  return "v1";
}

/**
 * The request target (path and query) of `request.url`, which is what a client signs; no URL parser needed for
 * the absolute URL a server gives. Without a Host header (HTTP/1.0) Bun gives the bare target instead, with its
 * dot segments as sent: that one is resolved as the URL parser would have, so the route and the signed path are
 * the same whatever the Host.
 */
export function requestTarget(url: string): string {
  const scheme = url.indexOf("://");
  if (scheme < 0) {
    const resolved = new URL(url, "http://localhost");
    return resolved.pathname + resolved.search;
  }
  const slash = url.indexOf("/", scheme + 3);
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
