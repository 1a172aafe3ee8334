import { sql } from "kysely";
import { capabilitiesOf } from "../db/capabilities.ts";
import { prepared } from "../db/prepared.ts";
import type { DB } from "../schema/database.ts";
import { type AccessDB, accessDb } from "./tables.ts";

/** The rolling window of every limit, in seconds. */
export const RATE_WINDOW_SECONDS = 3600;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests still admitted in the current window after this one. */
  remaining: number;
  /** When the oldest counted request leaves the window (ms since the epoch): the next slot frees then. */
  resetAt: number;
  /** Whole seconds until `resetAt` (at least 1 when denied). */
  retryAfter: number;
}

export interface ConsumeInput {
  /** The counted identity: `ip:<address or /64>` or `key:<id>`. */
  client: string;
  /** Requests per window; must be ≥ 1 (callers skip limiting for 0). */
  limit: number;
  now: Date;
  windowSeconds?: number;
}

/**
 * Admits or refuses one request of `client`, exactly: a sliding log of admitted requests, so no more than
 * `limit` are admitted in ANY window of `windowSeconds` (a request counts while `now - at < window`, and
 * ages out at exactly `at + window`). Refused requests are not counted.
 *
 * Atomic on every database, as each decision's first statement is a write that takes a lock: on PostgreSQL the
 * upsert of the client's row, whose lock holds until commit (concurrent decisions for one client queue there,
 * across servers); on SQLite, where a write transaction locks the whole file (one writer at a time, across
 * processes, whether the dialect begins it `immediate` or not), the request's hit itself, counted with the others
 * and taken back when it is one too many. Everything after the lock reads committed state, so two servers sharing
 * one database never hand out the same slot.
 */
export async function consumeRateLimit(db: DB | AccessDB, input: ConsumeInput): Promise<RateLimitDecision> {
  const [decision] = await consumeRateLimits(db, [input]);
  return decision as RateLimitDecision;
}

/**
 * Several decisions in one transaction, one `begin` and `commit` for all of them; the decisions come back in the
 * order given. A client's decisions are taken in the order given, each counting the hits of those before it (as
 * `consumeRateLimit` of each in turn), and the clients in the order of their names: every transaction takes its
 * clients' rows in that one order, so two servers' transactions on PostgreSQL never wait on each other in a
 * circle. Atomic as a whole: when the transaction fails, no decision was taken.
 */
export async function consumeRateLimits(
  db: DB | AccessDB,
  inputs: readonly ConsumeInput[],
): Promise<RateLimitDecision[]> {
  const base = db as DB;
  const decide = capabilitiesOf(base).rowLocks ? decideLockingRow : decideHitFirst;
  // Sorted by client; `sort` is stable, so each client's decisions keep their order.
  const order = inputs
    .map((_, i) => i)
    .sort((a, b) => byClient(inputs[a] as ConsumeInput, inputs[b] as ConsumeInput));
  return accessDb(db)
    .transaction()
    .execute(async (trx) => {
      const decisions: RateLimitDecision[] = new Array(inputs.length);
      for (const i of order)
        decisions[i] = await decide(base, trx as unknown as DB, inputs[i] as ConsumeInput);
      return decisions;
    });
}

const byClient = (a: ConsumeInput, b: ConsumeInput): number =>
  a.client < b.client ? -1 : a.client > b.client ? 1 : 0;

/**
 * One decision inside the transaction `on` (of `base`), where rows can be locked (PostgreSQL): the client's row
 * locked by its upsert, the hits in the window counted, the request's hit recorded when it is admitted.
 */
async function decideLockingRow(base: DB, on: DB, input: ConsumeInput): Promise<RateLimitDecision> {
  const times = inMs(input);
  const { client, now, windowMs } = times;
  await touchClient(base, [client, now], 0, on);
  const [row] = await countHits(base, [client, now - windowMs], 0, on);
  const used = Number(row?.n ?? 0);
  const allowed = used < input.limit;
  if (allowed) await recordHit(base, [client, now], 0, on);
  return decision(input.limit, times, allowed, used, oldestOf(row) ?? now);
}

/**
 * One decision inside the transaction `on` (of `base`), where a write locks the file (SQLite): the request's hit
 * recorded first (the lock), then the hits in the window counted with it; one too many, it is deleted and they are
 * counted again. An admitted request costs two statements, and no client row is kept (`rate_limit_clients` is the
 * row lock's, which SQLite has no use for).
 */
async function decideHitFirst(base: DB, on: DB, input: ConsumeInput): Promise<RateLimitDecision> {
  const times = inMs(input);
  const { client, now, windowMs } = times;
  await recordHit(base, [client, now], 0, on);
  let [row] = await countHits(base, [client, now - windowMs], 0, on);
  const allowed = Number(row?.n ?? 0) <= input.limit;
  if (!allowed) {
    await takeBackHit(base, [client, now], 0, on);
    [row] = await countHits(base, [client, now - windowMs], 0, on);
  }
  const used = Number(row?.n ?? 0) - (allowed ? 1 : 0);
  return decision(input.limit, times, allowed, used, oldestOf(row) ?? now);
}

/** The decision's client, time and window in ms. */
const inMs = (input: ConsumeInput) => ({
  client: input.client,
  now: input.now.getTime(),
  windowMs: (input.windowSeconds ?? RATE_WINDOW_SECONDS) * 1000,
});

const oldestOf = (row: { oldest: number | string | null } | undefined): number | null =>
  row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);

/** A decision, given how many hits of the window came before the request and the oldest hit counted. */
function decision(
  limit: number,
  { now, windowMs }: { now: number; windowMs: number },
  allowed: boolean,
  used: number,
  oldest: number,
): RateLimitDecision {
  const resetAt = oldest + windowMs;
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - used - (allowed ? 1 : 0)),
    resetAt,
    retryAfter: Math.max(allowed ? 0 : 1, Math.ceil((resetAt - now) / 1000)),
  };
}

// The statements of a decision, compiled once per database and run inside the transaction that takes it. Hits
// that aged out are not counted; the prune deletes them (`pruneRateLimits`), not every decision.
type Arg = (i: number) => string | number;
const text = (arg: Arg, i: number) => arg(i) as string;
const int = (arg: Arg, i: number) => arg(i) as number;
const touchClient = prepared((db, arg: Arg) =>
  accessDb(db)
    .insertInto("rate_limit_clients")
    .values({ client: text(arg, 0), touched_at: int(arg, 1) })
    .onConflict((oc) =>
      oc.column("client").doUpdateSet({ touched_at: (eb) => eb.ref("excluded.touched_at") }),
    ),
);
const countHits = prepared((db, arg: Arg) =>
  accessDb(db)
    .selectFrom("rate_limit_hits")
    .select([sql<number | string>`count(*)`.as("n"), sql<number | string | null>`min(at)`.as("oldest")])
    .where("client", "=", text(arg, 0))
    .where("at", ">", int(arg, 1)),
);
const recordHit = prepared((db, arg: Arg) =>
  accessDb(db)
    .insertInto("rate_limit_hits")
    .values({ client: text(arg, 0), at: int(arg, 1) }),
);
/** Deletes one hit of a client at a time (SQLite's `rowid`: the hits are alike, any one of them will do). */
const takeBackHit = prepared((db, arg: Arg) =>
  accessDb(db)
    .deleteFrom("rate_limit_hits")
    .where(
      sql<number>`rowid`,
      "=",
      accessDb(db)
        .selectFrom("rate_limit_hits")
        .select(sql<number>`rowid`.as("rowid"))
        .where("client", "=", text(arg, 0))
        .where("at", "=", int(arg, 1))
        .limit(1),
    ),
);

/** Removes rows of the rate limiter that no window can count any more. */
export async function pruneRateLimits(db: DB | AccessDB, now: Date, windowSeconds = RATE_WINDOW_SECONDS) {
  const cutoff = now.getTime() - windowSeconds * 1000;
  const adb = accessDb(db);
  await adb.deleteFrom("rate_limit_hits").where("at", "<=", cutoff).execute();
  await adb.deleteFrom("rate_limit_clients").where("touched_at", "<=", cutoff).execute();
}
