import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { migrate } from "../../lib/index.ts";
import { isoTimestamp } from "../../lib/time/format.ts";
import { openSqlite } from "../../src/db/open.ts";
import { createAccessGuard } from "../../src/http/access.ts";
import { createApp } from "../../src/http/app.ts";
import { bunConnInfo } from "../../src/http/conn-info.ts";
import { createViewTokens } from "../../src/http/view-tokens.ts";
import { tempDir } from "../support/databases.ts";
import { testContext } from "../support/fixtures-app.ts";
import { type V2Ids, writeV2Fixture } from "../support/v2-fixture.ts";

/**
 * The explorer's budget against the anonymous limit, over a real loopback server: a page view counts once (its
 * view token), its own calls within the token's bounds do not; anything beyond counts as usual.
 */

const T0 = Date.parse("2026-06-30T12:00:00Z");
const dir = tempDir();
const opened = openSqlite(join(dir, "budget.db"));
const time = { now: T0 };
const clock = () => new Date(time.now);
let ids: V2Ids;
let url = "";
let stopServer = () => {};
let access: ReturnType<typeof createAccessGuard>;

function start(limit: number, explorer: Partial<Parameters<typeof createAccessGuard>[0]> = {}) {
  access = createAccessGuard({
    db: opened.db,
    clock,
    anonymousLimit: limit,
    pruneIntervalMs: 0,
    ...explorer,
  });
  const app = createApp({ ...testContext(opened.db, { cache: false }), clock, access });
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (request, bun) => app.handle(request, bunConnInfo(bun, request)),
  });
  url = `http://127.0.0.1:${server.port}`;
  stopServer = () => server.stop(true);
}

async function restart(limit: number, explorer: Partial<Parameters<typeof createAccessGuard>[0]> = {}) {
  stopServer();
  await access?.close();
  time.now += 2 * 3600_000; // a fresh hour for the next scenario
  start(limit, explorer);
}

const get = (path: string, token?: string) =>
  fetch(`${url}${path}`, { headers: token ? { "X-Explorer-Token": token } : {} });

async function view(): Promise<{ token: string; remaining: number; calls: number }> {
  const r = await get("/api/v2/explorer/view");
  expect(r.status).toBe(200);
  const body = (await r.json()) as { data: { token: string; calls: number } };
  return {
    token: body.data.token,
    calls: body.data.calls,
    remaining: Number(r.headers.get("X-RateLimit-Remaining")),
  };
}

beforeAll(async () => {
  await migrate(opened.db);
  ids = await writeV2Fixture(opened.db);
  start(100);
});

afterAll(async () => {
  stopServer();
  await access?.close();
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("explorer budget", () => {
  test("a person: 30 page views in 10 minutes (each 1 view + its calls) never see a 429; each view counts once", async () => {
    await restart(100);
    const one = ids.university("one.fr.example");
    const overview = [
      "/api/v2/universities?limit=1",
      "/api/v2/distribution?bins=20",
      "/api/v2/rankings?limit=10",
    ];
    const university = [`/api/v2/universities/${one}`, `/api/v2/universities/${one}/history`];
    const statuses: number[] = [];
    let last = 0;
    for (let i = 0; i < 30; i++) {
      time.now += 20_000;
      const v = await view();
      last = v.remaining;
      for (const path of i % 2 ? overview : university) {
        const r = await get(path, v.token);
        statuses.push(r.status);
        expect(r.headers.get("X-Explorer-View-Remaining")).not.toBeNull();
      }
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(statuses.length).toBe(75);
    expect(last).toBe(70); // 30 counted requests: the views
  });

  test("a compare page of ten universities fits one view", async () => {
    await restart(100);
    const v = await view();
    expect(v.calls).toBe(24);
    const paths = [...Array(10)].flatMap(() => [
      `/api/v2/universities/${ids.university("one.fr.example")}`,
      `/api/v2/scans/${ids.scan("one-new")}`,
    ]);
    for (const p of paths) expect((await get(p, v.token)).status).toBe(200);
    const after = await get("/api/v2/rankings?limit=1");
    expect(after.headers.get("X-RateLimit-Remaining")).toBe(String(v.remaining - 1));
  });

  test("a script gains no unbounded budget: the token request counts, and a token admits 24 calls, then counting resumes", async () => {
    await restart(100);
    const v = await view();
    expect(v.remaining).toBe(99);
    for (let i = 0; i < 24; i++) {
      const r = await get("/api/v2/rankings?limit=1", v.token);
      expect(r.headers.get("X-Explorer-View-Remaining")).toBe(String(23 - i));
      expect(r.headers.get("X-RateLimit-Remaining")).toBeNull();
    }
    const beyond = await get("/api/v2/rankings?limit=1", v.token);
    expect(beyond.status).toBe(200);
    expect(beyond.headers.get("X-Explorer-View-Remaining")).toBeNull();
    expect(beyond.headers.get("X-RateLimit-Remaining")).toBe("98");
    // The token route always counts, even when a valid token comes along.
    const fresh = await view();
    const again = await get("/api/v2/explorer/view", fresh.token);
    expect(again.headers.get("X-RateLimit-Remaining")).toBe("96");
  });

  test("forged, expired or foreign tokens count as ordinary anonymous calls", async () => {
    await restart(100);
    const v = await view(); // 99 left
    const [id, expires, signature] = v.token.split(".");
    const forged = [
      `${id}.${Number(expires) + 3600_000}.${signature}`,
      `${id}.${expires}.${(signature ?? "").replace(/^./, (c) => (c === "A" ? "B" : "A"))}`,
      "not-a-token",
    ];
    let remaining = 99;
    for (const token of forged) {
      const r = await get("/api/v2/rankings?limit=1", token);
      remaining -= 1;
      expect(r.headers.get("X-RateLimit-Remaining")).toBe(String(remaining));
    }
    time.now += 121_000;
    const expired = await get("/api/v2/rankings?limit=1", v.token);
    expect(expired.headers.get("X-RateLimit-Remaining")).toBe(String(remaining - 1));
    // A token of another process (another secret) is foreign here.
    const other = createViewTokens().issue(clock());
    const foreign = await get("/api/v2/rankings?limit=1", other.token);
    expect(foreign.headers.get("X-RateLimit-Remaining")).toBe(String(remaining - 2));
  });

  test("once the anonymous limit is spent, no view starts and used-up tokens are refused too", async () => {
    await restart(2);
    const a = await view();
    await view();
    const refused = await get("/api/v2/explorer/view");
    expect(refused.status).toBe(429);
    for (let i = 0; i < 24; i++) expect((await get("/api/v2/rankings?limit=1", a.token)).status).toBe(200);
    expect((await get("/api/v2/rankings?limit=1", a.token)).status).toBe(429);
  });

  test("the token request counts in every form of its path a client may send (as written on the wire)", async () => {
    await restart(100);
    const v = await view(); // 99 left
    const forms = [
      "/api/v2/explorer/view/",
      "/api/v2/explorer/view/.",
      "/api/v2/explorer/view/%2e",
      "/api/v2/./explorer/view",
      "/api/v2/x/../explorer/view",
      "/api/v2/explorer/%76iew",
      "/api/v2/explorer/%76%69%65%77/",
      "/api/%762/explorer/view",
    ];
    let remaining = 99;
    for (const form of forms) {
      // Raw HTTP over a socket, so no client normalises the path before the server sees it.
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(url).port), "127.0.0.1", () =>
          socket.write(
            `GET ${form} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Explorer-Token: ${v.token}\r\nConnection: close\r\n\r\n`,
          ),
        );
        let text = "";
        socket.on("data", (chunk) => {
          text += chunk;
        });
        socket.on("end", () => resolve(text));
        socket.on("error", reject);
      });
      remaining -= 1;
      expect([form, /^HTTP\/1\.1 (\d+)/.exec(answer)?.[1]]).toEqual([form, "200"]);
      expect([form, /x-ratelimit-remaining: (\d+)/i.exec(answer)?.[1]]).toEqual([form, String(remaining)]);
      expect(answer.toLowerCase()).not.toContain("x-explorer-view-remaining");
    }
  });

  test("an operator's settings: more calls per view, and page views limited apart from other requests", async () => {
    await restart(3, {
      viewTokens: createViewTokens({ calls: 30, ttlSeconds: 300 }),
      explorerViewLimit: 5,
    });
    const views = [];
    for (let i = 0; i < 5; i++) views.push(await view());
    // Page views have their own counter: the anonymous limit of 3 is untouched by five views.
    expect(views.map((v) => [v.calls, v.remaining])).toEqual([
      [30, 4],
      [30, 3],
      [30, 2],
      [30, 1],
      [30, 0],
    ]);
    const refused = await get("/api/v2/explorer/view");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("RateLimit-Policy")).toBe('"explorer-views";q=5;w=3600');
    expect((await refused.json()).error.message).toContain("5 explorer page views per hour");
    const first = views[0]?.token ?? "";
    for (let i = 0; i < 30; i++) expect((await get("/api/v2/rankings?limit=1", first)).status).toBe(200);
    time.now += 200_000; // within the 300 s lifetime
    const plain = await get("/api/v2/rankings?limit=1", views[1]?.token);
    expect(plain.headers.get("X-Explorer-View-Remaining")).toBe("29");
    const counted = await get("/api/v2/rankings?limit=1", first);
    expect(counted.headers.get("X-RateLimit-Remaining")).toBe("2");
    expect(counted.headers.get("RateLimit-Policy")).toBe('"per-ip";q=3;w=3600');
  });

  test("0 page views: not limited, while other anonymous requests still are", async () => {
    await restart(1, { explorerViewLimit: 0 });
    for (let i = 0; i < 5; i++) expect((await get("/api/v2/explorer/view")).status).toBe(200);
    expect((await get("/api/v2/rankings?limit=1")).status).toBe(200);
    expect((await get("/api/v2/rankings?limit=1")).status).toBe(429);
  });

  test("history and distribution over HTTP: the v2 envelope, 404 and 400 naming every bad parameter", async () => {
    await restart(100);
    const one = ids.university("one.fr.example");
    const h = await (await get(`/api/v2/universities/${one}/history?limit=1&page=2`)).json();
    expect(h).toMatchObject({ api_version: "2.0", success: true, meta: { page: 2, limit: 1, total: 2 } });
    expect(h.data).toEqual([
      {
        id: ids.scan("one-new"),
        completed_at: "2026-06-20T00:00:00+00:00",
        overall_score: 62,
        webo_composite_score: 65,
        tech_composite_score: 75.5,
        research_composite_score: null,
        presence_composite_score: null,
      },
    ]);
    const missing = await get("/api/v2/universities/999999/history");
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe("NOT_FOUND");
    const d = await (await get("/api/v2/distribution?bins=2&country=fr")).json();
    expect(d.data).toEqual([
      { from: 0, to: 50, count: 0 },
      { from: 50, to: 100, count: 1 },
    ]);
    expect(d.meta).toEqual({
      score: "overall_score",
      country: "FR",
      bins: 2,
      measured: 1,
      not_measured: 0,
      mean: 62,
      median: 62,
      // Imported scans: one profile, held by default.
      profile: "unknown",
      profiles: { unknown: 9 },
    });
    const bad = await get("/api/v2/distribution?bins=0&score=nope&country=xyz");
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.error.code).toBe("INVALID_PARAMETER");
    expect(body.error.details.map((x: { param: string }) => x.param).sort()).toEqual([
      "bins",
      "country",
      "score",
    ]);
    const view = await (await get("/api/v2/explorer/view")).json();
    expect(view.data.expires_at).toBe(isoTimestamp(new Date(time.now + 120_000)));
  });
});
