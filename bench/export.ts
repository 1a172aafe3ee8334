/**
 * `unirank export` at scale: each format of a database of about 1,000,000 scans (100,000 universities, the
 * dataset of `npm run bench`), as `unirank export` runs it, pinned to one core. Prints rows, seconds, rows/s, peak
 * RSS and output size per format; the target is a peak RSS under 200 MB whatever the size (docs/performance.md).
 *
 *   bun bench/export.ts [--db PATH] [--universities N] [--scans-per-university X] [--formats a,b]
 *                       [--data-dir DIR] [--keep] [--out FILE]
 *
 * Without --db the database is built once under the data directory (dataset from the seed generator, then
 * `unirank import`) and reused by later runs.
 */
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BUN, loadAverage, mb, pinned, sampleRss } from "./proc.ts";

const ROOT = resolve(import.meta.dir, "..");
const argv = process.argv.slice(2);
const value = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const universities = Number(value("universities") ?? 100_000);
const perUniversity = Number(value("scans-per-university") ?? 10.64);
const dataDir = resolve(value("data-dir") ?? join(ROOT, "bench/.data"));
const formats = (value("formats") ?? "ndjson,csv,scans-csv,checks-csv,parquet,sqlite").split(",");
const OUTPUT: Record<string, string> = {
  ndjson: "export.ndjson.gz",
  csv: "export.csv",
  "scans-csv": "export-scans.csv.gz",
  "checks-csv": "export-checks.csv",
  parquet: "export.parquet",
  sqlite: "export.db",
};
const log = (text: string) => process.stderr.write(`${text}\n`);

/** Runs a command pinned to core 0 to completion: wall seconds, peak RSS, stderr. */
async function run(cmd: string[]) {
  const started = performance.now();
  const proc = Bun.spawn(pinned(0, cmd), { cwd: ROOT, stdout: "ignore", stderr: "pipe" });
  const sampler = sampleRss(proc.pid, 50);
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  const sampled = sampler.stop();
  const usage = proc.resourceUsage();
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`${cmd.join(" ")} failed (${code}): ${stderr.slice(-2000)}`);
  return { seconds, peakRss: Math.max(sampled, usage ? Number(usage.maxRSS) : 0), stderr };
}

mkdirSync(dataDir, { recursive: true });
let db = value("db");
if (!db) {
  const tag = `${universities}-${perUniversity}`;
  db = join(dataDir, `export-${tag}.db`);
  if (!existsSync(db)) {
    const dataset = join(dataDir, `dataset-${tag}.ndjson`);
    if (!existsSync(dataset)) {
      log(`dataset: generating ${universities} universities ...`);
      await run([BUN, join(ROOT, "bench/dataset.ts"), dataset, String(universities), String(perUniversity)]);
    }
    log("database: unirank import ...");
    await run([BUN, join(ROOT, "src/cli.ts"), "import", dataset, "--db", db, "--no-events"]);
  }
}
const counted = new Database(db, { readonly: true });
const scans = counted.query<{ n: number }, []>("select count(*) as n from scans").get()?.n ?? 0;
counted.close();
log(`database: ${db} (${scans} scans)`);

const results: Record<string, unknown>[] = [];
for (const format of formats) {
  const out = join(dataDir, OUTPUT[format] ?? `export.${format}`);
  rmSync(out, { force: true });
  const r = await run([BUN, join(ROOT, "src/cli.ts"), "export", out, "--format", format, "--db", db]);
  const rows = Number(/\(([\d,]+) rows/.exec(r.stderr)?.[1]?.replaceAll(",", "") ?? Number.NaN);
  const figures = {
    format,
    rows,
    seconds: Math.round(r.seconds * 10) / 10,
    rows_per_s: Math.round(rows / r.seconds),
    peak_rss_mb: mb(r.peakRss),
    output_mb: mb(statSync(out).size),
  };
  results.push(figures);
  log(`${format.padEnd(11)} ${JSON.stringify(figures)}`);
  if (!argv.includes("--keep")) rmSync(out, { force: true });
}
const report = { at: new Date().toISOString(), load: loadAverage().uptime, db, scans, results };
process.stdout.write(`${JSON.stringify(report)}\n`);
const outFile = value("out");
if (outFile) writeFileSync(outFile, `${JSON.stringify(report, null, 2)}\n`);
