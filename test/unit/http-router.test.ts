import { expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { defineRoute, type RouteSpec, requestTarget } from "../../src/http/route.ts";
import { canonicalPath, createRouter } from "../../src/http/router.ts";

const route = (path: string): RouteSpec => ({
  version: "v1",
  path,
  operationId: path,
  summary: path,
  tags: [],
  handle: () => ({ data: null }),
});

const routes = [
  route("/health"),
  route("/api/v1/universities"),
  route("/api/v1/universities/:id"),
  route("/api/v1/universities/:id/scores"),
  route("/api/v2/leaderboard/:category"),
];
const { match } = createRouter(routes);
const found = (path: string) => {
  const m = match(path);
  return m && { path: m.route.path, params: m.params };
};

test("static paths, with or without a trailing slash", () => {
  expect(found("/health")).toEqual({ path: "/health", params: {} });
  expect(found("/api/v1/universities/")).toEqual({ path: "/api/v1/universities", params: {} });
  expect(found("/")).toBeNull();
  expect(found("/health/x")).toBeNull();
  expect(found("/HEALTH")).toBeNull();
});

test("the canonical path: encoded unreserved characters decoded, one trailing slash dropped, nothing else", () => {
  expect(canonicalPath("/api/v2/explorer/%76iew/")).toBe("/api/v2/explorer/view");
  expect(canonicalPath("/api/%76%32/%2D%2e%5F%7E%41%5a%61%7A%30%39")).toBe("/api/v2/-._~AZaz09");
  // Reserved and other characters stay encoded: `%2F` is no segment separator, `%25` stays a literal percent sign.
  expect(canonicalPath("/a%2Fb/%25%41/%20/%40")).toBe("/a%2Fb/%25A/%20/%40");
  expect(canonicalPath("/API//x")).toBe("/API//x");
  expect(canonicalPath("/")).toBe("/");
  expect(found("/%68ealth/")).toEqual({ path: "/health", params: {} });
  expect(found("/api/v1/%75niversities/%34%32")?.params).toEqual({ id: "42" });
});

test("parameters: one segment each, percent-decoded; invalid encoding or an empty segment match nothing", () => {
  expect(found("/api/v1/universities/42")).toEqual({
    path: "/api/v1/universities/:id",
    params: { id: "42" },
  });
  expect(found("/api/v1/universities/42/scores/")).toEqual({
    path: "/api/v1/universities/:id/scores",
    params: { id: "42" },
  });
  expect(found("/api/v2/leaderboard/%73ecurity")?.params).toEqual({ category: "security" });
  expect(found("/api/v2/leaderboard/a%2Fb")?.params).toEqual({ category: "a/b" });
  expect(found("/api/v2/leaderboard/%E0%A4%A")).toBeNull();
  expect(found("/api/v1/universities//scores")).toBeNull();
  expect(found("/api/v1/universities/1/2")).toBeNull();
});

test("the request target: as sent in an absolute URL; resolved when the server gives a bare one", () => {
  expect(requestTarget("http://x/api/v1/universities?limit=1#f")).toBe("/api/v1/universities?limit=1");
  expect(requestTarget("http://api:80")).toBe("/");
  expect(requestTarget("/api/v1/universities/1/../2?q=1")).toBe("/api/v1/universities/2?q=1");
});

test("defineRoute: a handler receives its schemas' static types", async () => {
  const typed = defineRoute({
    version: "v1",
    path: "/t/:id",
    operationId: "t",
    summary: "t",
    tags: [],
    params: Type.Object({ id: Type.Integer() }),
    query: Type.Object({ q: Type.Optional(Type.String()) }),
    handle: ({ params, query }) => {
      const id: number = params.id;
      const q: string | undefined = query.q;
      // @ts-expect-error: the parameter is a number, not a string
      const wrong: string = params.id;
      return { data: { id, q, wrong } };
    },
  });
  const payload = await typed.handle({
    params: { id: 7 },
    query: { q: "x" },
    request: new Request("http://x/t/7"),
    prefix: "",
    now: () => new Date(0),
  });
  expect(payload.data).toEqual({ id: 7, q: "x", wrong: 7 });
});
