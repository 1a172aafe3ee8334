import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { createApp } from "../../src/http/app.ts";
import { ResponseCache } from "../../src/http/cache.ts";
import type { Payload, RouteSpec } from "../../src/http/route.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { testContext } from "../support/fixtures-app.ts";

/** Lets other callers run while a computation is under way (no wall time involved). */
const yieldTurns = async (turns: number) => {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** A computation that counts its calls, yields `turns` times, then answers `answer(call number)` (or throws it). */
function counted(turns: number, answer: (call: number) => Payload) {
  const counter = {
    calls: 0,
    compute: async (): Promise<Payload> => {
      counter.calls++;
      await yieldTurns(turns);
      return answer(counter.calls);
    },
  };
  return counter;
}

describe("ResponseCache.resolve: single-flight", () => {
  test("32 concurrent misses of one key compute once and share the payload", async () => {
    const cache = new ResponseCache();
    const counter = counted(20, (n) => ({ data: { n } }));
    const compute = counter.compute;
    const results = await Promise.all(Array.from({ length: 32 }, () => cache.resolve("k", 1, compute)));
    expect(counter.calls).toBe(1);
    expect(cache.joined).toBe(31);
    for (const r of results) expect(r.payload).toBe(results[0]?.payload as Payload);
    // Cached afterwards: no more computation.
    await cache.resolve("k", 1, compute);
    expect(counter.calls).toBe(1);
    expect(cache.hits).toBe(1);
  });

  test("another key or another generation computes on its own", async () => {
    const cache = new ResponseCache();
    const counter = counted(10, (n) => ({ data: n }));
    const compute = counter.compute;
    await Promise.all([
      cache.resolve("a", 1, compute),
      cache.resolve("b", 1, compute),
      cache.resolve("a", 2, compute),
    ]);
    expect(counter.calls).toBe(3);
  });

  test("an error is shared by the waiting misses and not cached; the next miss computes again", async () => {
    const cache = new ResponseCache();
    const counter = counted(10, () => {
      throw new Error("boom");
    });
    const settled = await Promise.allSettled(
      Array.from({ length: 8 }, () => cache.resolve("e", 1, counter.compute)),
    );
    expect(counter.calls).toBe(1);
    expect(settled.every((s) => s.status === "rejected")).toBe(true);
    const ok = await cache.resolve("e", 1, async () => ({ data: "fine" }));
    expect(ok.payload.data).toBe("fine");
    expect(cache.size).toBe(1);
  });

  test("a non-200 payload is shared but not cached", async () => {
    const cache = new ResponseCache();
    const counter = counted(10, () => ({ data: null, status: 503 }));
    const compute = counter.compute;
    const rs = await Promise.all(Array.from({ length: 4 }, () => cache.resolve("s", 1, compute)));
    expect(counter.calls).toBe(1);
    expect(rs.every((r) => r.entry === undefined)).toBe(true);
    expect(cache.size).toBe(0);
    await cache.resolve("s", 1, compute);
    expect(counter.calls).toBe(2);
  });
});

describeEachDatabase("http: cache stampede protection", (get) => {
  test("32 simultaneous requests of one URL (a cold cache) call the handler once", async () => {
    let calls = 0;
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: RouteSpec = {
      version: "v1",
      path: "/api/v1/slow-test",
      operationId: "slowTest",
      summary: "slow",
      tags: ["test"],
      query: Type.Object({ n: Type.Optional(Type.Integer()) }),
      handle: async ({ query }) => {
        calls++;
        await released;
        return { data: { n: query.n ?? 0 } };
      },
    };
    const cache = new ResponseCache();
    const app = createApp(testContext(get().db, { cache }), { routes: [slow] });
    const fetch = (path: string) => app.handle(new Request(`http://unirank.test${path}`));
    // Distinct ignored parameters normalise to one key, as concurrent clients of one page would.
    const asked = Promise.all(Array.from({ length: 32 }, (_, i) => fetch(`/api/v1/slow-test?n=1&_=${i}`)));
    // The handler answers once every request has either started a computation or joined one.
    while (calls + cache.joined < 32) await yieldTurns(1);
    release();
    const responses = await asked;
    expect(responses.map((r) => r.status)).toEqual(Array(32).fill(200));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    for (const b of bodies) expect(b).toEqual({ success: true, data: { n: 1 } });
    expect(calls).toBe(1);
    expect(new Set(responses.map((r) => r.headers.get("ETag"))).size).toBe(1);
    // A different key is its own computation; a repeat is a hit.
    await Promise.all([
      fetch("/api/v1/slow-test?n=2"),
      fetch("/api/v1/slow-test?n=2"),
      fetch("/api/v1/slow-test?n=1"),
    ]);
    expect(calls).toBe(2);
  });
  test("regressions are cached per second of the clock; concurrent requests share one computation", async () => {
    let now = new Date("2026-06-01T12:00:00.250Z");
    const cache = new ResponseCache();
    const app = createApp({ ...testContext(get().db, { cache }), clock: () => now });
    const fetch = (path: string) => app.handle(new Request(`http://unirank.test${path}`));
    const rs = await Promise.all(Array.from({ length: 32 }, () => fetch("/api/v2/regressions?days=7")));
    expect(rs.map((r) => r.status)).toEqual(Array(32).fill(200));
    expect(cache.size).toBe(1);
    // One computation: the others joined it, or (arriving after it ended) were hits.
    expect(cache.misses - cache.joined).toBe(1);
    expect(cache.hits + cache.misses).toBe(32);
    const since = (await (rs[0] as Response).json()).meta.since;
    expect(since).toBe("2026-05-25T12:00:00+00:00");
    now = new Date("2026-06-01T12:00:00.900Z"); // same second: a hit
    const hits = cache.hits;
    await fetch("/api/v2/regressions?days=7");
    expect(cache.hits).toBe(hits + 1);
    now = new Date("2026-06-01T12:00:01.000Z"); // next second: computed again, with its own window
    const next = await (await fetch("/api/v2/regressions?days=7")).json();
    expect(next.meta.since).toBe("2026-05-25T12:00:01+00:00");
    expect(cache.size).toBe(2);
  });
});
