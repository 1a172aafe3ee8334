/**
 * The core's point lookup (`getUniversity`, one statement) through each PostgreSQL client on the same server:
 * unirank's dialect over Bun's own client (`Bun.SQL`, what `serve` and the CLI use), `pg` through Kysely's
 * PostgresDialect, and porsager's `postgres` through kysely-postgres-js, each with a pool of 10 and `--in-flight`
 * calls at once. Prints calls a second and the CPU µs of this process a call, per client and round (the order
 * rotates every round), then the medians.
 *
 *   npx bun bench/postgres-clients.ts [--universities N] [--calls N] [--rounds N] [--in-flight N]
 *
 * Starts a PostgreSQL server as the tests do (Debian's binaries), with one database of N generated universities.
 */
import { type Dialect, Kysely, PostgresDialect } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import pg from "pg";
import postgres from "postgres";
import { type Database, getUniversity, migrate, writeRecords } from "../lib/index.ts";
import { generateDataset } from "../lib/seed/index.ts";
import { BunPostgresDialect } from "../src/db/bun-postgres-dialect.ts";
import { stopTestPostgres, testPostgres } from "../test/support/postgres-server.ts";
import { benchOptions } from "./args.ts";
import { median } from "./median.ts";

const { value } = benchOptions();
const universities = Number(value("universities") ?? 20_000);
const calls = Number(value("calls") ?? 20_000);
const rounds = Number(value("rounds") ?? 3);
const inFlight = Number(value("in-flight") ?? 32);

const available = await testPostgres();
if (!available.ok) throw new Error(`no PostgreSQL server: ${available.reason}`);
const url = await available.server.createDatabase("unirank_clients");

const clients: Record<string, () => Dialect> = {
  "Bun.SQL (unirank)": () => new BunPostgresDialect({ url, max: 10, acquireSeconds: 10, idleSeconds: 30 }),
  "pg (Kysely PostgresDialect)": () =>
    new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 10 }) }),
  "postgres (kysely-postgres-js)": () => new PostgresJSDialect({ postgres: postgres(url, { max: 10 }) }),
};

const setup = new Kysely<Database>({ dialect: clients["Bun.SQL (unirank)"]?.() as Dialect });
await migrate(setup);
await writeRecords(setup, generateDataset({ universities, scansPerUniversity: 2 }));
const ids = (await setup.selectFrom("universities").select("id").execute()).map((r) => Number(r.id));
await setup.destroy();
console.log(`${ids.length} universities; ${calls} calls a run, ${inFlight} in flight`);

/** One run: `calls` lookups of random universities, `inFlight` at a time, on a fresh pool (warmed first). */
async function run(dialect: () => Dialect): Promise<{ perSecond: number; cpuMicros: number }> {
  const db = new Kysely<Database>({ dialect: dialect() });
  try {
    let seed = 1;
    const next = () => {
      seed = (seed * 48271) % 2147483647;
      return ids[seed % ids.length] as number;
    };
    const drive = async (n: number) => {
      let started = 0;
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (started++ < n) await getUniversity(db, next());
        }),
      );
    };
    await drive(2_000);
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    await drive(calls);
    const seconds = (performance.now() - t0) / 1000;
    const used = process.cpuUsage(cpu);
    return { perSecond: calls / seconds, cpuMicros: (used.user + used.system) / calls };
  } finally {
    await db.destroy();
  }
}

const names = Object.keys(clients);
const results = new Map<string, { perSecond: number; cpuMicros: number }[]>(names.map((n) => [n, []]));
for (let round = 0; round < rounds; round++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(k + round) % names.length] as string;
    const r = await run(clients[name] as () => Dialect);
    results.get(name)?.push(r);
    console.log(
      `round ${round + 1}  ${name.padEnd(30)} ${r.perSecond.toFixed(0).padStart(7)} calls/s  ${r.cpuMicros.toFixed(1).padStart(6)} µs CPU a call`,
    );
  }
}
console.log("medians:");
for (const [name, rs] of results) {
  console.log(
    `  ${name.padEnd(30)} ${median(rs.map((r) => r.perSecond))
      .toFixed(0)
      .padStart(7)} calls/s  ${median(rs.map((r) => r.cpuMicros))
      .toFixed(1)
      .padStart(6)} µs CPU a call`,
  );
}
await stopTestPostgres();
