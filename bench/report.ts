/** Figures of a benchmark run: the results file's shape, the targets, the table and the docs section. */

export interface RunResult {
  name: string;
  label: string;
  mode: "uncached" | "cached" | "ceiling";
  requests: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  body_bytes: number;
  errors: number;
  error_kinds: Record<string, number>;
  status_codes?: Record<string, number>;
  /** Every request answered 2xx (wrk: no status >= 400, no socket error). */
  all_ok: boolean;
  /** Largest RSS of the serving process sampled during the run. */
  rss_mb: number | null;
  /**
   * Requests/s as a fraction of the ceiling's: the middle of its pairs' shares (a run of the ceiling and one of the
   * endpoint, one after the other), or of the run of the ceiling just before this one, or of the run's first.
   */
  ratio: number | null;
  /** The smallest and largest share of a pair, where the figures come from pairs. */
  ratio_range?: [number, number];
  /** Requests/s of the ceiling over the runs the share was taken against. */
  ceiling_rps?: number;
  /** Milliseconds to the endpoint's first answer from this server, builds included. */
  first_ms?: number;
}

export interface Target {
  name: string;
  goal: string;
  measured: string;
  met: boolean | null;
}

export interface Results {
  date: string;
  quick: boolean;
  machine: Record<string, unknown>;
  settings: Record<string, unknown>;
  dataset: Record<string, unknown>;
  database: Record<string, unknown>;
  import: {
    via: string;
    rows: number;
    seconds: number;
    rows_per_s: number;
    peak_rss_mb: number | null;
    bare_rows_per_s: number;
    bare_seconds: number;
    bare_peak_rss_mb: number | null;
    ratio_to_bare: number;
  };
  cold_start: {
    source_ms: number;
    source_samples_ms: number[];
    binary_ms: number | null;
    binary_note: string;
  };
  server_peak_rss_mb: number | null;
  server_peak_rss_by_mode_mb?: Record<string, number | null>;
  ceiling: { rps: number; p50_ms: number; p99_ms: number; body_bytes: number };
  runs: RunResult[];
  unavailable: string[];
  targets: Target[];
}

const pct = (x: number | null | undefined) => (x == null ? "–" : `${Math.round(x * 100)} %`);

/** The smallest and largest share of a run's pairs in percent, `25–36`. */
export const shareRange = (range: readonly [number, number]): string =>
  range.map((y) => Math.round(y * 100)).join("–");

/** The benchmark targets, judged on the uncached runs of this same run. */
export function evaluateTargets(r: Results): Target[] {
  const run = (name: string, mode = "uncached") => r.runs.find((x) => x.name === name && x.mode === mode);
  const out: Target[] = [];
  const ratioTarget = (name: string, min: number, p99?: number) => {
    const x = run(name);
    out.push({
      name: `${name} uncached`,
      goal: `≥ ${Math.round(min * 100)} % of ceiling${p99 ? `, p99 < ${p99} ms` : ""}`,
      measured: x ? `${pct(x.ratio)}, p99 ${x.p99_ms} ms` : "not run",
      met: x ? (x.ratio ?? 0) >= min && (p99 === undefined || x.p99_ms < p99) : null,
    });
  };
  // Point lookups at half the ceiling, first pages of rankings and leaderboards at 40 %, every other read at 25 %.
  const goals: Record<string, number> = { university: 0.5, scores: 0.5, rankings: 0.4, leaderboard: 0.4 };
  for (const x of r.runs) {
    if (x.mode !== "uncached" || x.name === "health") continue;
    ratioTarget(x.name, goals[x.name] ?? 0.25);
  }
  const first = run("rankings-20");
  const deep = run("rankings-deep");
  out.push({
    name: "rankings-deep uncached",
    goal: "within 2x of the first page (same limit)",
    measured: first && deep ? `${(first.rps / Math.max(1, deep.rps)).toFixed(2)}x slower` : "not run",
    met: first && deep ? deep.rps * 2 >= first.rps : null,
  });
  ratioTarget("health", 0.7);
  const search = run("search");
  out.push({
    name: "search uncached (latency)",
    goal: "p99 < 50 ms",
    measured: search ? `p99 ${search.p99_ms} ms` : "not run",
    met: search ? search.p99_ms < 50 : null,
  });
  out.push({
    name: "import",
    goal: "≥ 60 % of bare insert, peak RSS < 300 MB",
    measured: `${pct(r.import.ratio_to_bare)}, ${r.import.peak_rss_mb} MB`,
    met: r.import.ratio_to_bare >= 0.6 && (r.import.peak_rss_mb ?? Infinity) < 300,
  });
  out.push({
    name: "server RSS under load",
    goal: "< 150 MB",
    measured: `${r.server_peak_rss_mb} MB`,
    met: r.server_peak_rss_mb === null ? null : r.server_peak_rss_mb < 150,
  });
  return out;
}

/** The figures as a Markdown table (printed, and written into docs/performance.md). */
export function renderTable(r: Results): string {
  const lines = [
    "| endpoint | mode | req/s | ceiling req/s | of ceiling | p50 ms | p99 ms | RSS MB | first answer ms | all 200 |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const x of r.runs) {
    const ceiling = x.mode === "ceiling" ? "–" : (x.ceiling_rps ?? r.ceiling.rps);
    const range = x.ratio_range ? ` (${shareRange(x.ratio_range)})` : "";
    lines.push(
      `| ${x.label} | ${x.mode} | ${x.rps} | ${ceiling} | ${x.mode === "ceiling" ? "–" : `${pct(x.ratio)}${range}`} | ${x.p50_ms} | ${x.p99_ms} | ${x.rss_mb ?? "–"} | ${x.first_ms ?? "–"} | ${x.all_ok ? "yes" : `no (${x.errors})`} |`,
    );
  }
  const i = r.import;
  const d = r.dataset;
  lines.push(
    "",
    `Dataset: ${d.universities} universities, ${d.completed_scans} completed scans (${d.records} records, ${Math.round(Number(d.bytes) / 1e6)} MB NDJSON) generated in ${Number(d.seconds).toFixed(1)} s (${d.records_per_s} records/s).`,
    `Import (${i.via}): ${i.rows} rows in ${i.seconds} s = ${i.rows_per_s} rows/s, ${pct(i.ratio_to_bare)} of a bare bun:sqlite insert (${i.bare_rows_per_s} rows/s); peak RSS ${i.peak_rss_mb} MB (bare ${i.bare_peak_rss_mb} MB).`,
    `Cold start to the first answered request: source ${r.cold_start.source_ms} ms; compiled binary ${r.cold_start.binary_ms ?? "–"} ms (${r.cold_start.binary_note}). Server peak RSS ${r.server_peak_rss_mb} MB.`,
    "",
    "| target | goal | measured | met |",
    "|---|---|---|---|",
    ...r.targets.map(
      (t) => `| ${t.name} | ${t.goal} | ${t.measured} | ${t.met === null ? "–" : t.met ? "yes" : "**no**"} |`,
    ),
  );
  if (r.unavailable.length > 0) lines.push("", `Not served in this run: ${r.unavailable.join(", ")}.`);
  return lines.join("\n");
}

const pairsOf = (r: Results): number => Number(r.settings.pairs ?? 0);

/** How long each endpoint was loaded. */
function loadNote(r: Results): string {
  if (pairsOf(r) === 0) return `${r.settings.duration_s} s per run`;
  const seconds = pairsOf(r) * Number(r.settings.slice_s);
  return `${seconds} s of load an endpoint (the ceiling's first run ${r.settings.duration_s} s)`;
}

/** How the shares were taken: in pairs, against a run of the ceiling beside each endpoint's, or against the run's first. */
function ceilingNote(r: Results): string {
  const pairs = pairsOf(r);
  if (pairs > 0) {
    const slice = Number(r.settings.slice_s);
    return `Each endpoint is measured in ${pairs} pairs of ${slice} s runs, the ceiling's and the endpoint's one after the other (which goes first alternating): its share is the middle of the pairs' shares (in brackets the smallest and the largest), its req/s and the ceiling's are over all its runs, p50 and p99 the middle of the runs' own. The machine's speed moves from second to second.`;
  }
  const beside = Number(r.settings.ceiling_beside_s ?? 0);
  if (!(beside > 0)) return "Every share is of the ceiling's first run.";
  const rates = r.runs
    .filter((x) => x.mode !== "ceiling" && x.ceiling_rps)
    .map((x) => x.ceiling_rps as number);
  const range = rates.length > 0 ? ` (${Math.min(...rates)}–${Math.max(...rates)} req/s in this run)` : "";
  return `Each share is of a ${beside} s run of the ceiling made just before that endpoint's${range}: the machine's speed moves from minute to minute.`;
}

const MARKER = "<!-- section:performance -->";

/** What follows it in the performance section is written by hand (what each change bought) and kept. */
const NOTES_MARKER = "<!-- performance:notes -->";

/**
 * Replaces the text under the performance marker with this run's table: up to the notes marker when the section
 * has one, else up to the next section marker.
 */
export function renderReadme(readme: string, r: Results, resultsPath: string): string {
  const start = readme.indexOf(MARKER);
  if (start < 0) return readme;
  const after = start + MARKER.length;
  const next = readme.indexOf("<!-- section:", after);
  const sectionEnd = next < 0 ? readme.length : next;
  const notes = readme.indexOf(NOTES_MARKER, after);
  const end = notes >= 0 && notes < sectionEnd ? notes : sectionEnd;
  const m = r.machine as {
    cpus: number;
    cpu_model: string;
    bun: string;
    load_before: { uptime: string };
    cores: string;
  };
  const section = [
    "",
    "# Performance",
    "",
    `\`npm run bench\` (scripts in \`bench/\`) measures the API at scale against the ceiling of the runtime in one run:
a bare \`Bun.serve\` answering a constant JSON body as large as the rankings page. Uncached: ${r.settings.uncached};
cached: the default server (response cache on) asked one URL over and over. ${r.settings.connections} connections, ${loadNote(r)} after a ${r.settings.warmup_s} s warm-up, load from
\`${r.settings.loader}\`. ${ceilingNote(r)} *First answer ms*: how long the endpoint's first request took on
that server, with what it builds once per data generation. ${m.cores}. Run of ${r.date.slice(0, 16)} UTC, ${m.cpus} × ${m.cpu_model}, Bun ${m.bun},
machine load before the run: \`${m.load_before.uptime}\`. Full figures: \`${resultsPath}\`.`,
    "",
    renderTable(r),
    "",
  ].join("\n");
  return `${readme.slice(0, after)}\n${section}\n${readme.slice(end)}`;
}
