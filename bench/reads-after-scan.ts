/**
 * What the first reads after a finished scan pay, as under continuous scanning in `serve`: each round writes one
 * completed scan for a random university (through the ingest writer, as the scanner does), then asks a page of
 * the universities list, a search, a sorted search, the rankings' first page, a leaderboard, a country's ranking,
 * the regressions, the country counts and the statistics once each, in process (the app as `unirank serve` builds it, response cache off). Prints the median and the slowest of each, in ms.
 *
 *   bun bench/reads-after-scan.ts DB [--rounds N]
 *
 * The scans it wrote are deleted at the end (the data triggers put `latest_scans` back). It writes to DB: use a
 * copy of a database another build must open too.
 */
import { sql } from "kysely";
import { migrate, writeRecords } from "../lib/index.ts";
import { openDatabase } from "../src/db/open.ts";
import { benchArgs } from "./args.ts";
import { median } from "./median.ts";
import { servedApp } from "./served-app.ts";

const { value, dbPath } = benchArgs("reads-after-scan.ts DB [--rounds N]");
const rounds = Number(value("rounds") ?? 10);

const opened = await openDatabase(dbPath, { readWindowMs: 1 });
const db = opened.db;
await migrate(db);
const served = await servedApp(dbPath, opened);
const app = served.app;

const { n } = await db
  .selectFrom("universities")
  .select((eb) => eb.fn.countAll<number>().as("n"))
  .executeTakeFirstOrThrow();
const domains = (await db.selectFrom("universities").select("domain").limit(1000).execute()).map(
  (r) => r.domain,
);
const reads: Record<string, (round: number) => string> = {
  "list page": (r) => `/api/v1/universities?page=${1 + ((r * 7919) % Math.ceil(Number(n) / 20))}`,
  search: (r) => `/api/v1/universities?search=${["tech", "ste", "colle", "nat", "inst"][r % 5]}`,
  "sorted search": (r) => `/api/v1/universities?search=${["tech", "ste", "colle"][r % 3]}&sort=country`,
  "rankings page 1": () => "/api/v1/rankings?limit=20",
  leaderboard: (r) => `/api/v2/leaderboard/${["technical", "research", "overall"][r % 3]}`,
  "country ranking": (r) => `/api/v1/rankings?country=${["US", "DE", "JP"][r % 3]}`,
  regressions: () => "/api/v2/regressions",
  countries: () => "/api/v2/countries",
  stats: () => "/api/v1/stats",
};

const ask = async (path: string): Promise<number> => {
  const started = performance.now();
  const response = await app.handle(new Request(`http://127.0.0.1${path}`));
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
  return performance.now() - started;
};

// Warm: every structure the rounds read built once before the first scan.
for (const read of Object.values(reads)) for (let r = 0; r <= rounds; r++) await ask(read(r));

const sourcePrefix = `bench-after-scan-${Date.now()}-`;
const times: Record<string, number[]> = { "write the scan": [] };
for (const name of Object.keys(reads)) times[name] = [];
try {
  for (let round = 0; round < rounds; round++) {
    const at = new Date(Date.now() + round * 1000).toISOString();
    const started = performance.now();
    await writeRecords(db, [
      {
        type: "scan",
        source_id: `${sourcePrefix}${round}`,
        domain: domains[(round * 31) % domains.length] as string,
        status: "completed",
        started_at: at,
        completed_at: at,
        overall_score: 50 + (round % 40),
      },
    ]);
    times["write the scan"]?.push(performance.now() - started);
    for (const [name, read] of Object.entries(reads)) times[name]?.push(await ask(read(round + 1)));
  }
} finally {
  await sql`delete from scans where source_id like ${`${sourcePrefix}%`}`.execute(db);
}

process.stdout.write(`first read after each of ${rounds} scans (${n} universities), ms: median / slowest\n`);
for (const [name, xs] of Object.entries(times)) {
  process.stdout.write(
    `  ${name.padEnd(16)} ${median(xs).toFixed(1).padStart(8)} / ${Math.max(...xs).toFixed(1)}\n`,
  );
}
await served.close();
await opened.close();
