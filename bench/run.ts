/**
 * `npm run bench`: measured speed at scale against the ceiling of the runtime, in one run.
 *
 *   bun bench/run.ts [--quick] [--universities N] [--scans-per-university X] [--duration S] [--warmup S]
 *                    [--pairs N] [--slice S] [--ceiling-beside S] [--connections N] [--loader wrk|autocannon]
 *                    [--only a,b] [--fresh] [--no-readme] [--data-dir DIR] [--out FILE]
 *
 * Phases: generate the dataset (streamed NDJSON, cached under bench/.data/), bare bun:sqlite insert,
 * import, cold starts, then load: the ceiling (a bare Bun.serve with a body as large as the rankings page)
 * and every endpoint, uncached (a distinct query string per request) and cached, each after its warm-up in
 * pairs of short runs, the ceiling's and the endpoint's one after the other: its share is the middle of the
 * pairs'. The server (and the ceiling, the import, the bare insert) run on core 0, the load generator on core 1.
 * Results: bench/results/<date>.json and docs/performance.md.
 */
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { type LoadFigures, pairedRuns, rate } from "./paired-runs.ts";
import { BUN, freePort, loadAverage, mb, pinned, rssOf, sampleRss, waitReady } from "./proc.ts";
import {
  evaluateTargets,
  type Results,
  type RunResult,
  renderReadme,
  renderTable,
  shareRange,
} from "./report.ts";
import { buildScenarios, type Mode, prepareScenario } from "./scenarios.ts";

const ROOT = resolve(import.meta.dir, "..");
const SERVER_CORE = 0;
const LOADER_CORE = 1;

interface Options {
  quick: boolean;
  universities: number;
  scansPerUniversity: number;
  duration: number;
  warmup: number;
  /**
   * Pairs of runs, the ceiling's and the endpoint's one after the other, that make an endpoint's figures; 0 makes
   * them of one run of `duration` after one run of the ceiling (`ceilingBeside`).
   */
  pairs: number;
  /** Seconds of each run of a pair. */
  slice: number;
  /**
   * With no pairs: seconds of the ceiling run just before each endpoint's; 0 takes every share against the run's
   * first ceiling.
   */
  ceilingBeside: number;
  connections: number;
  loader: "wrk" | "autocannon";
  only: string[] | null;
  fresh: boolean;
  reuseDb: boolean;
  readme: boolean;
  dataDir: string;
  out: string | null;
  deepPage: number;
}

function parseOptions(argv: string[]): Options {
  const flag = (name: string) => argv.includes(`--${name}`);
  const value = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const quick = flag("quick");
  const hasWrk = Bun.which("wrk") !== null;
  const loader = (value("loader") ?? (quick || !hasWrk ? "autocannon" : "wrk")) as Options["loader"];
  if (loader !== "wrk" && loader !== "autocannon") throw new Error("--loader must be wrk or autocannon");
  return {
    quick,
    universities: Number(value("universities") ?? (quick ? 300 : 100_000)),
    // 6 % of universities are never scanned: 10.64 scans per scanned university gives about 1,000,000.
    scansPerUniversity: Number(value("scans-per-university") ?? (quick ? 3 : 10.64)),
    duration: Number(value("duration") ?? (quick ? 1 : 6)),
    // An endpoint reaches its steady rate after 2–4 s of load (docs/performance.md).
    warmup: Number(value("warmup") ?? (quick ? 0 : 3)),
    // The machine's speed moves from second to second: an odd number of pairs has a middle one.
    pairs: Number(value("pairs") ?? (quick ? 1 : 5)),
    slice: Number(value("slice") ?? 1),
    ceilingBeside: Number(value("ceiling-beside") ?? (quick ? 1 : 3)),
    connections: Number(value("connections") ?? (quick ? 8 : 32)),
    loader,
    only: value("only")?.split(",") ?? null,
    fresh: flag("fresh"),
    reuseDb: flag("reuse-db"),
    readme: !quick && !flag("no-readme"),
    dataDir: resolve(
      value("data-dir") ?? (quick ? join(tmpdir(), `unirank-bench-${process.pid}`) : "bench/.data"),
    ),
    out: value("out") ?? null,
    deepPage: Number(value("deep-page") ?? (quick ? 5 : 1000)),
  };
}

const children = new Set<Bun.Subprocess>();
function spawn(cmd: string[], options: { stdout?: "pipe" | "ignore"; env?: Record<string, string> } = {}) {
  const proc = Bun.spawn(cmd, {
    cwd: ROOT,
    stdout: options.stdout ?? "pipe",
    stderr: "pipe",
    env: { ...process.env, ...options.env },
  });
  children.add(proc);
  proc.exited.then(() => children.delete(proc));
  return proc;
}
function killChildren() {
  for (const c of children) c.kill("SIGKILL");
}
process.on("exit", killChildren);
process.on("SIGINT", () => process.exit(130));
process.on("SIGTERM", () => process.exit(143));

const log = (text: string) => process.stderr.write(`${text}\n`);

/** Runs a child to completion; returns its last stdout line as JSON, wall seconds and peak RSS. */
async function runChild<T>(
  cmd: string[],
  what: string,
): Promise<{ out: T; seconds: number; peakRss: number }> {
  const started = performance.now();
  const proc = spawn(cmd);
  const sampler = sampleRss(proc.pid, 50);
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout as ReadableStream).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  const sampled = sampler.stop();
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`${what} failed (${code}): ${stderr.slice(-2000)}`);
  // ru_maxrss from the kernel when Bun reports it (bytes), else the largest sample.
  const usage = proc.resourceUsage();
  const peakRss = Math.max(sampled, usage ? Number(usage.maxRSS) : 0);
  const lines = stdout.trim().split("\n");
  let out = {} as T;
  try {
    out = JSON.parse(lines[lines.length - 1] ?? "{}") as T;
  } catch {
    out = { output: stdout.trim().slice(-500) } as T;
  }
  return { out, seconds, peakRss };
}

/** One load run against `base`, cycling through `paths`; the generator pinned to its own core. */
async function load(
  opts: Options,
  base: string,
  paths: string[],
  bust: boolean,
  seconds: number,
  loader = opts.loader,
): Promise<LoadFigures> {
  const pathsFile = join(opts.dataDir, `paths-${process.pid}.txt`);
  writeFileSync(pathsFile, `${paths.join("\n")}\n`);
  const cmd =
    loader === "wrk"
      ? [
          "wrk",
          "-t1",
          `-c${opts.connections}`,
          `-d${seconds}s`,
          "--timeout",
          "10s",
          "-s",
          join(ROOT, "bench/load.lua"),
          base,
          "--",
          pathsFile,
          bust ? "bust" : "same",
        ]
      : [
          "node",
          join(ROOT, "bench/load-autocannon.mjs"),
          base,
          pathsFile,
          String(opts.connections),
          String(seconds),
          bust ? "bust" : "same",
          ...(opts.quick ? [String(opts.connections * 25)] : []),
        ];
  const proc = spawn(pinned(LOADER_CORE, cmd));
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout as ReadableStream).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`${loader} failed (${code}): ${stderr.slice(-1000)}`);
  const line = stdout
    .trim()
    .split("\n")
    .reverse()
    .find((l) => l.startsWith("{"));
  if (!line) throw new Error(`${loader} printed no figures: ${stdout.slice(-1000)}`);
  return JSON.parse(line) as LoadFigures;
}

function toRun(name: string, label: string, mode: Mode | "ceiling", f: LoadFigures, rss: number): RunResult {
  const errors = Object.values(f.errors).reduce((a, b) => a + b, 0);
  return {
    name,
    label,
    mode,
    requests: f.requests,
    rps: rate(f),
    p50_ms: Math.round(f.latency_us.p50 / 10) / 100,
    p99_ms: Math.round(f.latency_us.p99 / 10) / 100,
    max_ms: Math.round(f.latency_us.max / 10) / 100,
    body_bytes: f.requests > 0 ? Math.round(f.bytes / f.requests) : 0,
    errors,
    error_kinds: f.errors,
    ...(f.status_codes ? { status_codes: f.status_codes } : {}),
    all_ok: f.requests > 0 && errors === 0,
    rss_mb: mb(rss),
    ratio: null,
  };
}

function serveCommand(
  opts: Options,
  dbPath: string,
  port: number,
  binary?: string,
  extra: string[] = [],
): string[] {
  const args = [
    "serve",
    "--db",
    dbPath,
    "--port",
    String(port),
    "--rate-limit",
    "0",
    "--log-dir",
    join(opts.dataDir, "logs"),
    ...extra,
  ];
  return binary ? [binary, ...args] : [BUN, join(ROOT, "src/cli.ts"), ...args];
}

async function stopProcess(proc: Bun.Subprocess) {
  proc.kill("SIGTERM");
  const timer = setTimeout(() => proc.kill("SIGKILL"), 5000);
  await proc.exited;
  clearTimeout(timer);
}

/** Starts the server, timing spawn to its first answered request. */
async function startServer(opts: Options, dbPath: string, binary?: string, extra: string[] = []) {
  const port = await freePort();
  const started = performance.now();
  const proc = spawn(pinned(SERVER_CORE, serveCommand(opts, dbPath, port, binary, extra)), {
    stdout: "ignore",
  });
  let alive = true;
  proc.exited.then(() => {
    alive = false;
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    const coldMs = await waitReady(`${base}/health`, started, { alive: () => alive });
    return { proc, base, coldMs };
  } catch (e) {
    const err = await new Response(proc.stderr).text().catch(() => "");
    throw new Error(`server did not start: ${(e as Error).message}\n${err.slice(-2000)}`);
  }
}

/** Modification time of the newest file under lib/ and src/. */
function newestSource(): number {
  let newest = 0;
  for (const dir of ["lib", "src"]) {
    for (const file of readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })) {
      if (file.isFile()) newest = Math.max(newest, statSync(join(file.parentPath, file.name)).mtimeMs);
    }
  }
  return newest;
}

function hasCommand(name: string): boolean {
  return existsSync(join(ROOT, `src/cli/${name}.ts`));
}

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  mkdirSync(opts.dataDir, { recursive: true });
  const startedAt = new Date();
  const loadBefore = loadAverage();
  log(
    `bench: ${opts.quick ? "quick" : "full"} run, ${opts.universities} universities, loader ${opts.loader}, ${loadBefore.uptime}`,
  );

  // 1. Dataset, streamed from the seed generator; cached between runs (its figures with it).
  const tag = `${opts.universities}-${opts.scansPerUniversity}`;
  const datasetPath = join(opts.dataDir, `dataset-${tag}.ndjson`);
  const datasetMeta = `${datasetPath}.json`;
  let dataset: Record<string, unknown>;
  if (!opts.fresh && existsSync(datasetPath) && existsSync(datasetMeta)) {
    dataset = { ...JSON.parse(readFileSync(datasetMeta, "utf8")), reused: true };
    log(`dataset: reusing ${datasetPath} (generated in ${dataset.seconds} s)`);
  } else {
    log("dataset: generating ...");
    const r = await runChild<Record<string, unknown>>(
      pinned(SERVER_CORE, [
        BUN,
        join(ROOT, "bench/dataset.ts"),
        datasetPath,
        String(opts.universities),
        String(opts.scansPerUniversity),
      ]),
      "dataset generation",
    );
    dataset = {
      ...r.out,
      wall_seconds: r.seconds,
      peak_rss_mb: mb(r.peakRss),
      generated_at: new Date().toISOString(),
    };
    writeFileSync(datasetMeta, JSON.stringify(dataset));
    dataset = { ...dataset, reused: false };
  }
  log(`dataset: ${JSON.stringify(dataset)}`);

  const barePath = join(opts.dataDir, "bare.db");
  const dbPath = join(opts.dataDir, "bench.db");
  const importSidecar = join(opts.dataDir, "import-figures.json");
  let importFigures: Results["import"] & { reused?: boolean };
  if (opts.reuseDb && existsSync(dbPath) && existsSync(importSidecar)) {
    // --reuse-db: the database and import figures of an earlier run on this dataset.
    importFigures = { ...JSON.parse(readFileSync(importSidecar, "utf8")), reused: true };
    log("import: reusing bench.db and its import figures (--reuse-db)");
  } else {
    // 2. Bare bun:sqlite insert of the same rows, the floor of any import.
    for (const p of [barePath, dbPath]) for (const s of ["", "-wal", "-shm"]) rmSync(p + s, { force: true });
    log("import: bare bun:sqlite insert ...");
    const bare = await runChild<{ rows: number; seconds: number; rows_per_s: number }>(
      pinned(SERVER_CORE, [BUN, join(ROOT, "bench/bare-insert.ts"), datasetPath, barePath]),
      "bare insert",
    );
    for (const s of ["", "-wal", "-shm"]) rmSync(barePath + s, { force: true });
    log(`import: bare ${bare.out.rows_per_s} rows/s, peak ${mb(bare.peakRss)} MB`);

    // 3. The import itself (`unirank import` when it exists, else the seed writer), into the served database.
    const viaCli = hasCommand("import");
    log(`import: ${viaCli ? "unirank import" : "writeRecords (unirank import not available)"} ...`);
    const imported = viaCli
      ? await (async () => {
          const m = await runChild([BUN, join(ROOT, "src/cli.ts"), "migrate", "--db", dbPath], "migrate");
          void m;
          return runChild<Record<string, unknown>>(
            pinned(SERVER_CORE, [
              BUN,
              join(ROOT, "src/cli.ts"),
              "import",
              datasetPath,
              "--db",
              dbPath,
              "--no-events",
            ]),
            "unirank import",
          );
        })()
      : await runChild<Record<string, unknown>>(
          pinned(SERVER_CORE, [BUN, join(ROOT, "bench/write-db.ts"), datasetPath, dbPath]),
          "writeRecords",
        );
    const rows = bare.out.rows;
    importFigures = {
      via: viaCli ? "unirank import --no-events" : "writeRecords (unirank import not available)",
      rows,
      seconds: Math.round(imported.seconds * 100) / 100,
      rows_per_s: Math.round(rows / imported.seconds),
      peak_rss_mb: mb(imported.peakRss),
      bare_rows_per_s: bare.out.rows_per_s,
      bare_seconds: Math.round(bare.out.seconds * 100) / 100,
      bare_peak_rss_mb: mb(bare.peakRss),
      ratio_to_bare: Math.round((rows / imported.seconds / bare.out.rows_per_s) * 1000) / 1000,
    };
    writeFileSync(importSidecar, JSON.stringify(importFigures));
  }
  log(`import: ${JSON.stringify(importFigures)}`);
  const counts = (() => {
    const db = new Database(dbPath, { readonly: true });
    const one = (q: string) => Number(db.query<{ n: number }, []>(q).get()?.n ?? 0);
    const c = {
      universities: one("select count(*) as n from universities"),
      completed_scans: one("select count(*) as n from scans where status = 'completed'"),
      ranked_universities: one("select count(*) as n from latest_scans"),
      db_mb: mb(Bun.file(dbPath).size),
    };
    db.close();
    return c;
  })();
  log(`database: ${JSON.stringify(counts)}`);

  // 4. Cold starts: the compiled binary (if built), then the server from source, which stays up for the load.
  let binaryColdMs: number | null = null;
  let binaryNote = "dist/unirank not built";
  const binary = join(ROOT, "dist/unirank");
  // Always rebuilt in a full run: a binary left from older sources would measure (and migrate) other code.
  if (!opts.quick && JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts?.build) {
    log("cold start: npm run build ...");
    const b = spawn([BUN, "run", "build"]);
    if ((await b.exited) !== 0)
      binaryNote = `npm run build failed: ${(await new Response(b.stderr).text()).slice(-300)}`;
  }
  if (existsSync(binary) && newestSource() > statSync(binary).mtimeMs) {
    // A quick run does not build: a binary older than the sources would run (and migrate with) other code.
    binaryNote = "dist/unirank is older than the sources; not measured";
  } else if (existsSync(binary)) {
    const samples: number[] = [];
    for (let i = 0; i < 3; i++) {
      const s = await startServer(opts, dbPath, binary);
      samples.push(s.coldMs);
      await stopProcess(s.proc);
    }
    binaryColdMs = Math.round(Math.min(...samples));
    binaryNote = `best of 3: ${samples.map((x) => Math.round(x)).join(", ")} ms`;
  }
  const sourceSamples: number[] = [];
  let rankingsBody = "";
  for (let i = 0; i < 3; i++) {
    const s = await startServer(opts, dbPath);
    sourceSamples.push(s.coldMs);
    if (i === 0) rankingsBody = await (await fetch(`${s.base}/api/v1/rankings`)).text();
    await stopProcess(s.proc);
  }
  const coldStart = {
    source_ms: Math.round(Math.min(...sourceSamples)),
    source_samples_ms: sourceSamples.map(Math.round),
    binary_ms: binaryColdMs,
    binary_note: binaryNote,
  };
  log(`cold start: ${JSON.stringify(coldStart)}`);

  // 5. The ceiling: a bare Bun.serve answering the bytes of the real rankings page.
  const bodyPath = join(opts.dataDir, "ceiling-body.json");
  writeFileSync(bodyPath, rankingsBody);
  const runs: RunResult[] = [];
  const ceilingPort = await freePort();
  const ceilingProc = spawn(
    pinned(SERVER_CORE, [BUN, join(ROOT, "bench/ceiling.ts"), bodyPath, String(ceilingPort)]),
  );
  const ceilingBase = `http://127.0.0.1:${ceilingPort}`;
  await waitReady(`${ceilingBase}/`, performance.now());
  const measureCeiling = async (loader: Options["loader"]) => {
    if (opts.warmup > 0) await load(opts, ceilingBase, ["/api/v1/rankings"], false, opts.warmup, loader);
    const sampler = sampleRss(ceilingProc.pid);
    const f = await load(opts, ceilingBase, ["/api/v1/rankings"], false, opts.duration, loader);
    return toRun(
      `ceiling-${loader}`,
      `ceiling: bare Bun.serve, ${rankingsBody.length} B (${loader})`,
      "ceiling",
      f,
      sampler.stop(),
    );
  };
  const ceiling = await measureCeiling(opts.loader);
  runs.push(ceiling);
  log(`ceiling: ${ceiling.rps} req/s, p50 ${ceiling.p50_ms} ms, p99 ${ceiling.p99_ms} ms`);
  // The other generator against the same ceiling shows whether the generator is the bottleneck.
  const other = opts.loader === "wrk" ? "autocannon" : Bun.which("wrk") ? "wrk" : null;
  if (!opts.quick && other) {
    const c = await measureCeiling(other);
    runs.push(c);
    log(`ceiling with ${other}: ${c.rps} req/s`);
  }

  // 6. Every endpoint: uncached against a server with the response cache off (and a distinct query string
  //    per request), cached against the default server repeating one URL. The ceiling stays up (idle on core 0
  //    while the server is loaded) and runs in turn with the endpoint, in pairs of short runs: the machine's
  //    speed moves from second to second, so a share is taken against the ceiling of the same seconds.
  const scenarios = buildScenarios(dbPath, { deepPage: opts.deepPage, distinct: opts.quick ? 50 : 2000 });
  const unavailable = new Set<string>();
  const cacheSwitch = readFileSync(join(ROOT, "src/cli/serve.ts"), "utf8").includes("--no-cache");
  const serverPeaks: Record<string, number | null> = {};
  const modes: Mode[] = opts.quick ? ["uncached"] : ["uncached", "cached"];
  for (const mode of modes) {
    const server = await startServer(
      opts,
      dbPath,
      undefined,
      mode === "uncached" && cacheSwitch ? ["--no-cache"] : [],
    );
    for (const sc of scenarios) {
      if (opts.only && !opts.only.includes(sc.name)) continue;
      if (!sc.modes.includes(mode) || unavailable.has(sc.name)) continue;
      // The endpoint's first answer, which pays for what it builds once per data generation.
      const probeStarted = performance.now();
      const probe = await fetch(`${server.base}${sc.paths.cached[0]}`);
      const probeBody = await probe.text();
      const firstMs = Math.round(performance.now() - probeStarted);
      if (probe.status === 404 && /No route/.test(probeBody)) {
        unavailable.add(sc.name);
        log(`${sc.name}: not served yet (404 no route), skipped`);
        continue;
      }
      const bust = mode === "uncached";
      await prepareScenario(server.base, sc.paths[mode]);
      if (opts.warmup > 0) await load(opts, server.base, sc.paths[mode], bust, opts.warmup);
      const runCeiling = (seconds: number) => load(opts, ceilingBase, ["/api/v1/rankings"], false, seconds);
      const runEndpoint = (seconds: number) => load(opts, server.base, sc.paths[mode], bust, seconds);
      let run: RunResult;
      if (opts.pairs > 0) {
        const sampler = sampleRss(server.proc.pid);
        const paired = await pairedRuns(
          opts.pairs,
          () => runCeiling(opts.slice),
          () => runEndpoint(opts.slice),
        );
        run = toRun(sc.name, sc.label, mode, paired.figures, sampler.stop());
        run.ratio = Math.round(paired.ratio * 1000) / 1000;
        run.ratio_range = paired.range.map((x) => Math.round(x * 1000) / 1000) as [number, number];
        run.ceiling_rps = paired.ceilingRps;
      } else {
        const beside = opts.ceilingBeside > 0 ? rate(await runCeiling(opts.ceilingBeside)) : ceiling.rps;
        const sampler = sampleRss(server.proc.pid);
        run = toRun(sc.name, sc.label, mode, await runEndpoint(opts.duration), sampler.stop());
        run.ratio = Math.round((run.rps / beside) * 1000) / 1000;
        run.ceiling_rps = beside;
      }
      run.first_ms = firstMs;
      runs.push(run);
      log(
        `${sc.name} ${mode}: ${run.rps} req/s (${Math.round((run.ratio ?? 0) * 100)} % of ${run.ceiling_rps}${run.ratio_range ? `, pairs ${shareRange(run.ratio_range)} %` : ""}), p50 ${run.p50_ms} ms, p99 ${run.p99_ms} ms, ${run.errors} errors, rss ${run.rss_mb} MB, first answer ${firstMs} ms`,
      );
    }
    serverPeaks[mode] = mb(rssOf(server.proc.pid, "VmHWM"));
    await stopProcess(server.proc);
  }
  await stopProcess(ceilingProc);
  const serverPeakRss = Math.max(0, ...Object.values(serverPeaks).map((x) => x ?? 0));
  rmSync(join(opts.dataDir, `paths-${process.pid}.txt`), { force: true });

  const results: Results = {
    date: startedAt.toISOString(),
    quick: opts.quick,
    machine: {
      cpus: availableParallelism(),
      cpu_model: cpus()[0]?.model ?? "",
      bun: Bun.version,
      load_before: loadBefore,
      load_after: loadAverage(),
      cores: `server, ceiling, import and bare insert pinned to core ${SERVER_CORE}; load generator (${opts.loader}) pinned to core ${LOADER_CORE}`,
    },
    settings: {
      universities: opts.universities,
      scans_per_university: opts.scansPerUniversity,
      connections: opts.connections,
      duration_s: opts.duration,
      warmup_s: opts.warmup,
      pairs: opts.pairs,
      slice_s: opts.slice,
      ceiling_beside_s: opts.ceilingBeside,
      loader: opts.loader,
      deep_page: opts.deepPage,
      uncached: cacheSwitch
        ? "server started with --no-cache, and every request carries a distinct `_=N` query parameter (ignored by the API)"
        : "every request carries a distinct `_=N` query parameter (ignored by the API)",
    },
    dataset,
    database: counts,
    import: importFigures,
    cold_start: coldStart,
    server_peak_rss_mb: serverPeakRss,
    server_peak_rss_by_mode_mb: serverPeaks,
    ceiling: {
      rps: ceiling.rps,
      p50_ms: ceiling.p50_ms,
      p99_ms: ceiling.p99_ms,
      body_bytes: rankingsBody.length,
    },
    runs,
    unavailable: [...unavailable],
    targets: [],
  };
  results.targets = evaluateTargets(results);

  const out =
    opts.out ??
    join(ROOT, "bench/results", `${startedAt.toISOString().slice(0, 10)}${opts.quick ? "-quick" : ""}.json`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${renderTable(results)}\n`);
  log(`results: ${out}`);
  if (opts.readme) {
    const readmePath = join(ROOT, "docs/performance.md");
    writeFileSync(
      readmePath,
      renderReadme(readFileSync(readmePath, "utf8"), results, out.replace(`${ROOT}/`, "")),
    );
    log("docs/performance.md updated");
  }
  if (opts.quick && !process.argv.includes("--data-dir"))
    rmSync(opts.dataDir, { recursive: true, force: true });
}

await main();
