import { expect, test } from "bun:test";
import { rateLimitBatches } from "../../lib/access/rate-limit-batches.ts";
import { consumeRateLimit, pruneRateLimits } from "../../lib/access/rate-limiter.ts";
import { accessDb } from "../../lib/access/tables.ts";
import { type DB, migrate } from "../../lib/index.ts";
import { openDatabase } from "../../src/db/open.ts";
import { describeEachDatabase } from "../support/databases.ts";

const T0 = Date.parse("2026-03-01T12:00:00Z");
const at = (ms: number) => new Date(T0 + ms);

/** Two connections to one database (two servers), migrated, given to `use` and closed after. */
async function withTwoServers(location: string, use: (a: DB, b: DB) => Promise<void>): Promise<void> {
  const a = await openDatabase(location);
  const b = await openDatabase(location);
  try {
    await migrate(a.db);
    await use(a.db, b.db);
  } finally {
    await a.close();
    await b.close();
  }
}

describeEachDatabase("rate limiter", (get) => {
  test("the 101st request in a window is refused, with the time the next slot frees", async () => {
    const { db } = get();
    const client = "ip:a";
    for (let i = 0; i < 100; i++) {
      const d = await consumeRateLimit(db, { client, limit: 100, now: at(i * 1000) });
      expect(d.allowed).toBe(true);
      expect(d.remaining).toBe(99 - i);
      expect(d.resetAt).toBe(T0 + 3_600_000);
    }
    const refused = await consumeRateLimit(db, { client, limit: 100, now: at(100_000) });
    expect(refused).toEqual({
      allowed: false,
      limit: 100,
      remaining: 0,
      resetAt: T0 + 3_600_000,
      retryAfter: 3500,
    });
    // Refusals are not counted: still refused just before the first request ages out...
    expect((await consumeRateLimit(db, { client, limit: 100, now: at(3_599_999) })).allowed).toBe(false);
    // ...and admitted at exactly 3600 s after it, once: the second request only ages out 1 s later.
    const edge = await consumeRateLimit(db, { client, limit: 100, now: at(3_600_000) });
    expect(edge.allowed).toBe(true);
    expect(edge.remaining).toBe(0);
    expect((await consumeRateLimit(db, { client, limit: 100, now: at(3_600_000) })).allowed).toBe(false);
    expect((await consumeRateLimit(db, { client, limit: 100, now: at(3_600_999) })).allowed).toBe(false);
    expect((await consumeRateLimit(db, { client, limit: 100, now: at(3_601_000) })).allowed).toBe(true);
  });

  test("no window of 3600 s ever holds more than the limit (no double allowance at an edge)", async () => {
    const { db } = get();
    const client = "ip:edge";
    const limit = 5;
    const admitted: number[] = [];
    // Bursts right before and right after every 'hour boundary' a fixed-window limiter would use.
    const times = [
      0, 1, 2, 3_599_998, 3_599_999, 3_600_000, 3_600_001, 3_600_002, 7_199_999, 7_200_000, 7_200_001,
    ];
    for (const t of times) {
      for (let i = 0; i < 3; i++) {
        if ((await consumeRateLimit(db, { client, limit, now: at(t) })).allowed) admitted.push(t);
      }
    }
    for (const start of admitted) {
      expect(admitted.filter((t) => t >= start && t < start + 3_600_000).length).toBeLessThanOrEqual(limit);
    }
    expect(admitted.length).toBeGreaterThan(limit);
  });

  test("150 concurrent requests of one client admit exactly the remainder", async () => {
    const { db } = get();
    const client = "ip:burst";
    for (let i = 0; i < 30; i++) await consumeRateLimit(db, { client, limit: 100, now: at(i) });
    const results = await Promise.all(
      Array.from({ length: 150 }, () => consumeRateLimit(db, { client, limit: 100, now: at(60_000) })),
    );
    expect(results.filter((r) => r.allowed).length).toBe(70);
    const remainders = results.filter((r) => r.allowed).map((r) => r.remaining);
    expect(new Set(remainders).size).toBe(70); // every slot handed out once
  });

  test("two independent connections (two servers) on one database admit exactly the limit", async () => {
    const { location, kind } = get();
    // PGlite has no second connection; two bun:sqlite connections in one thread would block each other
    // synchronously (busy wait), so SQLite is covered by two server processes in access-processes.test.ts.
    if (!location || kind === "sqlite") return;
    await withTwoServers(location, async (a, b) => {
      const client = `ip:two-servers-${Date.now()}`;
      const results = await Promise.all(
        Array.from({ length: 150 }, (_, i) =>
          consumeRateLimit(i % 2 ? a : b, { client, limit: 100, now: at(5_000) }),
        ),
      );
      expect(results.filter((r) => r.allowed).length).toBe(100);
    });
  });

  test("decisions taken together are those of one after another, in one transaction", async () => {
    const { db } = get();
    const batches = rateLimitBatches(db);
    for (let i = 0; i < 30; i++)
      await consumeRateLimit(db, { client: "ip:together-a", limit: 100, now: at(i) });
    // 150 requests of two clients, interleaved, all asked for at once.
    const asked = Array.from({ length: 150 }, (_, i) =>
      i % 3 === 2
        ? { client: "ip:together-b", limit: 10, now: at(60_000 + i) }
        : { client: "ip:together-a", limit: 100, now: at(60_000 + i) },
    );
    const results = await Promise.all(asked.map((input) => batches.consume(input)));
    expect(batches.transactions).toBe(1);
    const of = (client: string) => results.filter((_, i) => asked[i]?.client === client);
    // Each client's decisions in the order asked: the remainder counts down, then refusals.
    expect(of("ip:together-a").map((r) => (r.allowed ? r.remaining : -1))).toEqual([
      ...Array.from({ length: 70 }, (_, k) => 69 - k),
      ...Array.from({ length: 30 }, () => -1),
    ]);
    expect(of("ip:together-b").map((r) => (r.allowed ? r.remaining : -1))).toEqual([
      ...Array.from({ length: 10 }, (_, k) => 9 - k),
      ...Array.from({ length: 40 }, () => -1),
    ]);
    // The next decision counts them all.
    expect(
      (await consumeRateLimit(db, { client: "ip:together-a", limit: 100, now: at(70_000) })).allowed,
    ).toBe(false);
  });

  test("a batch holds at most its bound of decisions", async () => {
    const { db } = get();
    const batches = rateLimitBatches(db, 16);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        batches.consume({ client: `ip:bound-${i % 4}`, limit: 8, now: at(i) }),
      ),
    );
    expect(batches.transactions).toBe(3);
    expect(results.filter((r) => r.allowed).length).toBe(32);
  });

  test("two servers' batches taking many clients in opposite orders all complete, exactly", async () => {
    const { location, kind } = get();
    if (!location || kind === "sqlite") return;
    await withTwoServers(location, async (a, b) => {
      const clients = Array.from(
        { length: 20 },
        (_, i) => `ip:order-${Date.now()}-${String(i).padStart(2, "0")}`,
      );
      const first = rateLimitBatches(a);
      const second = rateLimitBatches(b);
      for (let round = 0; round < 3; round++) {
        const ask = (batches: typeof first, order: string[]) =>
          order.flatMap((client) =>
            Array.from({ length: 2 }, () => batches.consume({ client, limit: 5, now: at(1_000 + round) })),
          );
        const results = await Promise.all([...ask(first, clients), ...ask(second, [...clients].reverse())]);
        // Four a client a round, five a window: all four, then one, then none.
        expect(results.filter((r) => r.allowed).length).toBe([80, 20, 0][round] as number);
      }
    });
  });

  test("clients are counted separately, and pruning keeps what a window still counts", async () => {
    const { db } = get();
    expect((await consumeRateLimit(db, { client: "key:1", limit: 1, now: at(0) })).allowed).toBe(true);
    expect((await consumeRateLimit(db, { client: "key:1", limit: 1, now: at(1) })).allowed).toBe(false);
    expect((await consumeRateLimit(db, { client: "key:2", limit: 1, now: at(1) })).allowed).toBe(true);
    await pruneRateLimits(db, at(3_599_000));
    expect((await consumeRateLimit(db, { client: "key:1", limit: 1, now: at(3_599_500) })).allowed).toBe(
      false,
    );
    await pruneRateLimits(db, at(3_600_000));
    expect((await consumeRateLimit(db, { client: "key:1", limit: 1, now: at(3_600_000) })).allowed).toBe(
      true,
    );
  });

  test("hits that aged out are not counted before the prune deletes them; only row locks keep client rows", async () => {
    const { db, kind } = get();
    const adb = accessDb(db);
    const hits = async (client: string) =>
      Number(
        (
          await adb
            .selectFrom("rate_limit_hits")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("client", "=", client)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const client = "ip:aged";
    for (let i = 0; i < 3; i++)
      expect((await consumeRateLimit(db, { client, limit: 3, now: at(i) })).allowed).toBe(true);
    const refused = await consumeRateLimit(db, { client, limit: 3, now: at(10) });
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetAt: T0 + 3_600_000 });
    // A refusal leaves no hit behind (on SQLite it is recorded first, then taken back).
    expect(await hits(client)).toBe(3);
    // An hour on, the three are out of every window, though still stored until the prune.
    const later = await consumeRateLimit(db, { client, limit: 3, now: at(3_600_002) });
    expect(later).toMatchObject({ allowed: true, remaining: 2, resetAt: T0 + 7_200_002 });
    expect(await hits(client)).toBe(4);
    await pruneRateLimits(db, at(3_600_002));
    expect(await hits(client)).toBe(1);
    // The client's row exists for its lock, which PostgreSQL takes and SQLite (a write locks the file) needs not.
    const clients = await adb
      .selectFrom("rate_limit_clients")
      .select("client")
      .where("client", "=", client)
      .execute();
    expect(clients.length).toBe(kind === "sqlite" ? 0 : 1);
  });
});

test("a transaction of decisions that fails fails each of them with its error", async () => {
  // A database without the access tables: the batch's first statement fails.
  const opened = await openDatabase(":memory:");
  try {
    const batches = rateLimitBatches(opened.db);
    const settled = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => batches.consume({ client: `ip:fail-${i}`, limit: 5, now: at(0) })),
    );
    expect(settled.map((s) => s.status)).toEqual(Array(5).fill("rejected"));
    expect(batches.transactions).toBe(1);
  } finally {
    await opened.close();
  }
});
