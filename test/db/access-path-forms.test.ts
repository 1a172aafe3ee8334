import { afterAll, beforeAll, expect, test } from "bun:test";
import { createAccessGuard } from "../../src/http/access.ts";
import { createApp } from "../../src/http/app.ts";
import type { RouteSpec } from "../../src/http/route.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { testContext } from "../support/fixtures-app.ts";
import { V2_NOW, writeV2Fixture } from "../support/v2-fixture.ts";

/**
 * Every v1 and v2 route, asked in every form of its path: forms that name the same resource (RFC 3986
 * normalisation: a trailing slash, dot segments, percent-encoded unreserved characters in either hex case, a
 * backslash the URL parser reads as a slash) get exactly the access rules of the route; forms that name another
 * resource (another case, an empty segment) are no route at all: 404, nothing counted, no token handed out.
 */

const LIMIT = 1000;

/** A concrete path of a route (parameters filled in). */
const concrete = (route: RouteSpec) => route.path.replace(":category", "security").replace(/:[a-z_]+/g, "1");

/** The index of the last literal segment of a path (the one a form changes). */
function lastLiteral(segments: string[], route: RouteSpec): number {
  const pattern = route.path.split("/");
  for (let i = pattern.length - 1; i > 0; i--) if (!pattern[i]?.startsWith(":")) return i;
  return segments.length - 1;
}

const withSegment = (path: string, route: RouteSpec, change: (s: string) => string) => {
  const segments = path.split("/");
  const i = lastLiteral(segments, route);
  segments[i] = change(segments[i] ?? "");
  return segments.join("/");
};
const hex = (c: string) => `%${c.charCodeAt(0).toString(16)}`;

/** Forms that name the route's own resource. */
const SAME: [string, (path: string, route: RouteSpec) => string][] = [
  ["as written", (p) => p],
  ["trailing slash", (p) => `${p}/`],
  ["dot segment", (p) => p.replace("/api/", "/api/./")],
  ["dot-dot segment", (p) => p.replace("/api/", "/api/x/../")],
  ["trailing dot segment", (p) => `${p}/.`],
  ["percent-encoded dot segment", (p) => `${p}/%2e`],
  [
    "percent-encoded letter, lower-case hex",
    (p, r) => withSegment(p, r, (s) => hex(s[0] ?? "") + s.slice(1)),
  ],
  [
    "percent-encoded letters, upper-case hex",
    (p, r) => withSegment(p, r, (s) => [...s].map((c) => hex(c).toUpperCase()).join("")),
  ],
  ["percent-encoded version", (p) => p.replace(/^\/api\/v(\d)/, "/api/%76$1")],
  ["backslash", (p) => p.replace("/api/", "/api\\")],
];

/** Forms that name another resource. */
const OTHER: [string, (path: string, route: RouteSpec) => string][] = [
  ["upper case", (p, r) => withSegment(p, r, (s) => s.toUpperCase())],
  ["empty segment", (p) => p.replace("/api/", "/api//")],
  ["encoded slash", (p, r) => withSegment(p, r, (s) => `${s}%2F`)],
];

describeEachDatabase("access rules by route, whatever the path form", (get) => {
  let app: ReturnType<typeof createApp>;
  let access: ReturnType<typeof createAccessGuard>;
  let routes: RouteSpec[];
  let client = 0;

  beforeAll(async () => {
    const { db } = get();
    await writeV2Fixture(db);
    const clock = () => V2_NOW;
    access = createAccessGuard({ db, clock, anonymousLimit: LIMIT, pruneIntervalMs: 0 });
    app = createApp({ ...testContext(db, { cache: false }), clock, access });
    routes = app.routes.filter((r) => r.version !== "none");
  });
  afterAll(() => access.close());

  /** One anonymous request from a client of its own. */
  const ask = (path: string, token?: string) =>
    app.handle(
      new Request(`http://unirank.test${path}`, token ? { headers: { "X-Explorer-Token": token } } : {}),
      {
        remote: { address: `10.9.${Math.floor(++client / 250)}.${client % 250}` },
      },
    );

  test("forms of the same path: the route's rules (counted, or admitted by an explorer token; the view always counted)", async () => {
    expect(routes.length).toBeGreaterThan(15);
    const wrong: string[] = [];
    for (const route of routes) {
      const path = concrete(route);
      const isView = route.path === "/api/v2/explorer/view";
      for (const [form, change] of SAME) {
        const sent = change(path, route);
        const plain = await ask(sent);
        if (plain.status === 404 && (await plain.clone().text()).includes("No route"))
          wrong.push(`${form} ${sent}: no route`);
        if (plain.headers.get("X-RateLimit-Remaining") !== String(LIMIT - 1))
          wrong.push(`${form} ${sent}: not counted without a token`);
        const body = (await plain.json()) as { api_version?: string };
        if ((body.api_version === "2.0") !== (route.version === "v2"))
          wrong.push(`${form} ${sent}: answered in the shape of another version`);
        const withToken = await ask(sent, access.issueViewToken().token);
        const counted = withToken.headers.get("X-RateLimit-Remaining") === String(LIMIT - 1);
        const admitted = withToken.headers.get("X-Explorer-View-Remaining") !== null;
        if (isView ? !counted || admitted : counted || !admitted)
          wrong.push(`${form} ${sent}: with a token, counted=${counted} admitted=${admitted}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 60_000);

  test("forms that name another path: 404, nothing counted, no token handed out", async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      const path = concrete(route);
      for (const [form, change] of OTHER) {
        const sent = change(path, route);
        for (const token of [undefined, access.issueViewToken().token]) {
          const r = await ask(sent, token);
          const text = await r.text();
          if (r.status !== 404 || r.headers.get("X-RateLimit-Remaining") !== null || text.includes("token"))
            wrong.push(`${form} ${sent}: ${r.status} ${r.headers.get("X-RateLimit-Remaining")}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 60_000);

  test("the view route counts in every form until the limit, then answers 429 in every form", async () => {
    const { db } = get();
    const small = createAccessGuard({ db, clock: () => V2_NOW, anonymousLimit: SAME.length });
    const limited = createApp({ ...testContext(db, { cache: false }), clock: () => V2_NOW, access: small });
    const from = { remote: { address: "10.8.0.1" } };
    const view = "/api/v2/explorer/view";
    const viewRoute = routes.find((r) => r.path === view) as RouteSpec;
    let token = "";
    for (const [, change] of SAME) {
      const r = await limited.handle(
        new Request(`http://unirank.test${change(view, viewRoute)}`, {
          headers: token ? { "X-Explorer-Token": token } : {},
        }),
        from,
      );
      expect(r.status).toBe(200);
      token = ((await r.json()) as { data: { token: string } }).data.token;
    }
    for (const [form, change] of SAME) {
      const r = await limited.handle(
        new Request(`http://unirank.test${change(view, viewRoute)}`, {
          headers: { "X-Explorer-Token": token },
        }),
        from,
      );
      expect([form, r.status]).toEqual([form, 429]);
    }
    await small.close();
  }, 60_000);
});
