/**
 * unirank against the Lighthouse CI server on the same PostgreSQL server: point lookups and lists, alternating.
 *
 *   npx bun bench/lhci.ts [--universities N] [--duration S] [--rounds N] [--connections N]
 *
 * Installs @lhci/server (pinned, with `pg` and `pg-hstore` for its PostgreSQL storage) into the git-ignored
 * bench/.lhci/ on first use, without install scripts (sqlite3, needed only for LHCI's SQLite storage, is not).
 * Starts a PostgreSQL server as the tests do, with one database for each side; imports N universities with 3
 * scans each into unirank (`unirank import`), and creates N projects through LHCI's API (`POST /v1/projects`),
 * plus 20 builds for each of the first N/20 projects (`POST /v1/projects/{id}/builds`), so that both hold N rows
 * listed 20 at a time. Serves each on core 0 (unirank: `serve --no-cache --rate-limit 0`; LHCI: its
 * `createServer` under Node), loads with wrk on core 1, and per round runs each scenario on one side, then the
 * other (the order swaps every round):
 *   point  unirank `/api/v1/universities/{id}`      vs LHCI `/v1/projects/{projectId}`            (random ids)
 *   list   unirank `/api/v1/universities?page=P`    vs LHCI `/v1/projects/{projectId}/builds?limit=20`
 *   first  unirank `/api/v1/universities?page=1`    vs the same LHCI list (unirank's list without the depth)
 * unirank's requests get a distinct `_=N` each; LHCI's do not (it has no response cache, and its builds list
 * takes every query parameter as a column to filter on). Prints req/s, p50 and p99 per run, and the median over
 * rounds of unirank's req/s over LHCI's per scenario.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { stopTestPostgres, testPostgres } from "../test/support/postgres-server.ts";
import { benchOptions } from "./args.ts";
import { readNdjson } from "./ndjson.ts";
import { BUN, freePort, loadAverage, startPinned, stopProcess } from "./proc.ts";
import { prng } from "./scenarios.ts";
import { runWrk } from "./wrk.ts";

const ROOT = resolve(import.meta.dir, "..");
const LHCI_DIR = join(ROOT, "bench/.lhci");
const LHCI_PACKAGES = { "@lhci/server": "0.15.1", pg: "8.23.1", "pg-hstore": "2.3.4" };
const PAGE = 20;
const SCANS_PER_UNIVERSITY = 3;
const DISTINCT = 2000;

const { value } = benchOptions();
const universities = Number(value("universities") ?? 20_000);
const duration = Number(value("duration") ?? 5);
const rounds = Number(value("rounds") ?? 2);
const connections = Number(value("connections") ?? 32);
if (!(universities >= PAGE && duration > 0 && rounds > 0 && connections > 0))
  throw new Error("usage: lhci.ts [--universities N>=20] [--duration S] [--rounds N] [--connections N]");
const work = join(tmpdir(), `unirank-lhci-${process.pid}`);
mkdirSync(work, { recursive: true });

const log = (message: string) => console.log(message);
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** The pinned LHCI packages in bench/.lhci/, installed with npm unless every one is there at its version. */
function ensureLhci() {
  const installed = Object.entries(LHCI_PACKAGES).every(([name, version]) => {
    const manifest = join(LHCI_DIR, "node_modules", name, "package.json");
    return existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).version === version;
  });
  if (installed) return;
  const specs = Object.entries(LHCI_PACKAGES).map(([name, version]) => `${name}@${version}`);
  log(`installing ${specs.join(" ")} into bench/.lhci/`);
  const flags = ["--save-exact", "--ignore-scripts", "--no-audit", "--no-fund"];
  const npm = Bun.spawnSync(["npm", "install", "--prefix", LHCI_DIR, ...specs, ...flags], {
    stdout: "inherit",
    stderr: "inherit",
  });
  if (npm.exitCode !== 0) throw new Error("npm install of the Lighthouse CI server failed");
}

/** Runs a command in the repository and fails with its error output. */
function run(cmd: string[]) {
  const child = Bun.spawnSync(cmd, { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (child.exitCode !== 0)
    throw new Error(`${cmd.join(" ")} failed:\n${child.stderr.toString().slice(-2000)}`);
  return child.stdout.toString();
}

/** Calls `f` on every item, `concurrency` at a time, keeping the order of the results. */
async function eachLimited<T, R>(items: T[], concurrency: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await f(items[i] as T);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return out;
}

async function postJson<T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const rnd = prng(7);
const pickEach = <T>(xs: readonly T[], n: number) =>
  Array.from({ length: n }, () => xs[Math.floor(rnd() * xs.length)] as T);

const before = loadAverage();
log(`load before: ${before.uptime}`);
ensureLhci();
const postgres = await testPostgres();
if (!postgres.ok) throw new Error(`PostgreSQL: ${postgres.reason}`);
const unirankUrl = await postgres.server.createDatabase("unirank_bench");
const lhciUrl = await postgres.server.createDatabase("lhci_bench");

// unirank: the bench's synthetic dataset through `unirank import`.
let since = performance.now();
const dataset = join(work, "dataset.ndjson");
run([BUN, "bench/dataset.ts", dataset, String(universities), String(SCANS_PER_UNIVERSITY)]);
run([BUN, "src/cli.ts", "import", dataset, "--db", unirankUrl, "--no-events"]);
const client = new pg.Client({ connectionString: unirankUrl });
await client.connect();
const ids = (await client.query<{ id: number }>("select id from universities order by id")).rows.map(
  (r) => r.id,
);
const scans = Number((await client.query<{ n: string }>("select count(*) as n from scans")).rows[0]?.n ?? 0);
await client.end();
log(`unirank: ${ids.length} universities, ${scans} scans imported in ${seconds(since)}`);

// LHCI: one project per university (its domain and name, its site), then the builds its list shows.
const lhciPort = await freePort();
const lhciBase = `http://127.0.0.1:${lhciPort}`;
// Servers this bench started, killed whatever way it ends (a failed load included).
const children: Bun.Subprocess[] = [];
process.once("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});
const lhci = await startPinned(
  ["node", join(ROOT, "bench/lhci-server.mjs"), LHCI_DIR, String(lhciPort), lhciUrl],
  `${lhciBase}/healthz`,
);
children.push(lhci);
since = performance.now();
const records: { name: string; domain: string }[] = [];
for await (const r of readNdjson<{ type: string; name: string; domain: string }>(dataset))
  if (r.type === "university") records.push(r);
const projects = await eachLimited(records, 8, (u) =>
  postJson<{ id: string; token: string }>(`${lhciBase}/v1/projects`, {
    // The domain first: LHCI derives a unique 40-character slug from the name, and the dataset repeats names.
    name: `${u.domain} ${u.name}`,
    externalUrl: `https://${u.domain}/`,
    baseBranch: "main",
  }),
);
const listed = projects.slice(0, Math.ceil(universities / PAGE));
const builds = listed.flatMap((p, i) => Array.from({ length: PAGE }, (_, b) => ({ p, i, b })));
await eachLimited(builds, 8, ({ p, i, b }) => {
  const hash = (i * PAGE + b).toString(16).padStart(40, "0");
  const at = new Date(Date.UTC(2026, 0, 1) + (i * PAGE + b) * 60_000).toISOString();
  return postJson(
    `${lhciBase}/v1/projects/${p.id}/builds`,
    {
      projectId: p.id,
      lifecycle: "unsealed",
      hash,
      branch: "main",
      commitMessage: `Build ${b + 1}`,
      author: "Bench <bench@example.com>",
      avatarUrl: "https://example.com/avatar.png",
      ancestorHash: b > 0 ? (i * PAGE + b - 1).toString(16).padStart(40, "0") : "",
      externalBuildUrl: `https://example.com/builds/${i * PAGE + b}`,
      runAt: at,
      committedAt: at,
      ancestorCommittedAt: at,
    },
    { "x-lhci-build-token": p.token },
  );
});
log(
  `LHCI: ${projects.length} projects, ${builds.length} builds created through its API in ${seconds(since)}`,
);

const unirankPort = await freePort();
const unirankBase = `http://127.0.0.1:${unirankPort}`;
const serve = ["serve", "--db", unirankUrl, "--port", String(unirankPort), "--no-cache", "--rate-limit", "0"];
const unirank = await startPinned(
  [BUN, join(ROOT, "src/cli.ts"), ...serve, "--log-dir", join(work, "logs")],
  `${unirankBase}/health`,
);
children.push(unirank);

const pages = Math.ceil(ids.length / PAGE);
const pagePath = () => `/api/v1/universities?page=${1 + Math.floor(rnd() * pages)}`;
const lhciList = pickEach(listed, DISTINCT).map((p) => `/v1/projects/${p.id}/builds?limit=${PAGE}`);
const sides = {
  unirank: {
    base: unirankBase,
    bust: true,
    point: pickEach(ids, DISTINCT).map((id) => `/api/v1/universities/${id}`),
    list: Array.from({ length: DISTINCT }, pagePath),
    first: ["/api/v1/universities?page=1"],
  },
  lhci: {
    base: lhciBase,
    bust: false,
    point: pickEach(projects, DISTINCT).map((p) => `/v1/projects/${p.id}`),
    list: lhciList,
    first: lhciList,
  },
};
type Side = keyof typeof sides;
const scenarios = ["point", "list", "first"] as const;

// Every scenario's first path answers 200, and a list a page of 20, before anything is measured.
for (const side of Object.keys(sides) as Side[]) {
  for (const scenario of scenarios) {
    const url = `${sides[side].base}${sides[side][scenario][0]}`;
    const res = await fetch(url);
    const body = (await res.json()) as { data?: unknown[] } | unknown[];
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    const rows = Array.isArray(body) ? body : body.data;
    if (scenario !== "point" && rows?.length !== PAGE) throw new Error(`${url}: not ${PAGE} rows`);
  }
}

const ratios = new Map<string, number[]>();
try {
  for (let round = 1; round <= rounds; round++) {
    for (const scenario of scenarios) {
      const order: Side[] = round % 2 === 1 ? ["unirank", "lhci"] : ["lhci", "unirank"];
      const rps = {} as Record<Side, number>;
      for (const side of order) {
        const s = sides[side];
        const load = { base: s.base, paths: s[scenario], bust: s.bust, connections, dir: work };
        await runWrk({ ...load, seconds: 1 });
        const r = await runWrk({ ...load, seconds: duration });
        rps[side] = r.rps;
        log(
          [
            `round ${round}`,
            scenario.padEnd(5),
            side.padEnd(7),
            `${Math.round(r.rps)} req/s`.padStart(12),
            `p50 ${r.p50.toFixed(2)} ms`.padStart(14),
            `p99 ${r.p99.toFixed(2)} ms`.padStart(14),
            r.errors > 0 ? `${r.errors} errors` : "",
          ].join("  "),
        );
      }
      const ratio = rps.unirank / rps.lhci;
      ratios.set(scenario, [...(ratios.get(scenario) ?? []), ratio]);
      log(`round ${round}  ${scenario.padEnd(5)}  unirank/LHCI ${ratio.toFixed(2)}x`);
    }
  }
} finally {
  await stopProcess(unirank);
  await stopProcess(lhci);
  stopTestPostgres();
  rmSync(work, { recursive: true, force: true });
}
log("median over rounds of unirank/LHCI:");
for (const [scenario, xs] of ratios) {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const median =
    sorted.length % 2
      ? (sorted[Math.floor(mid)] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  log(`  ${scenario.padEnd(5)}  ${median.toFixed(2)}x  (${xs.map((x) => x.toFixed(2)).join(", ")})`);
}
log(`load after: ${loadAverage().uptime}`);
