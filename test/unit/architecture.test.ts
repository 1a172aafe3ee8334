import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** The import graph of `lib/` and `src/`, as the code's own import statements draw it. */
const ROOT = resolve(import.meta.dir, "../..");

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return path.endsWith(".ts") && !path.endsWith(".d.ts") ? [path] : [];
  });
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+["'](\.{1,2}\/[^"']+)["']|import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    if (!spec?.endsWith(".ts")) continue;
    const target = relative(ROOT, resolve(ROOT, dirname(file), spec));
    if (target.startsWith("lib/") || target.startsWith("src/")) out.push(target);
  }
  return out;
}

/** Strongly connected components of more than one node (Tarjan). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  return found;
}

const files = [...sources("lib"), ...sources("src")];
const fileGraph = new Map(files.map((f) => [f, new Set(importsOf(f))]));
/**
 * A file's room: its folder; or the file itself when it is an entry point that gathers other folders (an
 * `index.ts`) or stands at the top of `lib/` and `src/` (the CLI, the server, the shared errors).
 */
const roomOf = (file: string) =>
  dirname(file) === "lib" || dirname(file) === "src" || file.endsWith("/index.ts") ? file : dirname(file);
const folderGraph = new Map<string, Set<string>>();
for (const [file, targets] of fileGraph) {
  const from = roomOf(file);
  const edges = folderGraph.get(from) ?? new Set<string>();
  folderGraph.set(from, edges);
  for (const t of targets) if (roomOf(t) !== from) edges.add(roomOf(t));
}

test("the import graph was read", () => {
  expect(files.length).toBeGreaterThan(100);
  expect(fileGraph.get("lib/index.ts")?.size).toBeGreaterThan(10);
});

test("no file imports itself back through other files", () => {
  expect(cycles(fileGraph)).toEqual([]);
});

test("no folder imports itself back through other folders", () => {
  expect(cycles(folderGraph)).toEqual([]);
});

test("the core imports nothing of the adapters", () => {
  const inward = [...fileGraph].flatMap(([file, targets]) =>
    file.startsWith("lib/")
      ? [...targets].filter((t) => t.startsWith("src/")).map((t) => `${file} → ${t}`)
      : [],
  );
  expect(inward).toEqual([]);
});

/** The packages a file imports by name (`kysely`, `elysia`, …), static or dynamic. */
function packagesOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(
    /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+["']([^./"'][^"']*)["']|import\(\s*["']([^./"'][^"']*)["']\s*\)/g,
  )) {
    out.push((m[1] ?? m[2]) as string);
  }
  return out;
}

test("the HTTP core, the fetch handler and the server reach no Elysia: only the plugin does", () => {
  const reached = (entry: string) => {
    const seen = new Set<string>();
    const visit = (f: string) => {
      if (seen.has(f)) return;
      seen.add(f);
      for (const t of fileGraph.get(f) ?? []) visit(t);
    };
    visit(entry);
    return [...seen];
  };
  for (const entry of ["src/http/app.ts", "src/fetch-handler.ts", "src/server.ts"]) {
    const files = reached(entry);
    expect(files.length, entry).toBeGreaterThan(5);
    const elysia = files.filter((f) => packagesOf(f).some((p) => p === "elysia" || p.startsWith("elysia/")));
    expect(elysia, entry).toEqual([]);
  }
  expect(packagesOf("src/elysia.ts")).toContain("elysia");
});

/** The core's public indexes: one per package subpath (package.json `exports`). */
const PUBLIC_INDEXES = [
  "lib/index.ts",
  "lib/node/index.ts",
  "lib/scanner/index.ts",
  "lib/seed/index.ts",
  "lib/webhooks/receiver.ts",
];

/**
 * Where the adapters reach past the public indexes into the core, each for a named reason. Anything else in `src/`
 * imports the core as an embedder would.
 */
const CORE_INTERNALS_USED: Record<string, { files: string[]; why: string }> = {
  "src/http/spliced-json/": {
    files: [
      "lib/db/generation-memo.ts",
      "lib/db/keyset-batches.ts",
      "lib/queries/compare.ts",
      "lib/queries/get-scan.ts",
      "lib/queries/leaderboard.ts",
      "lib/queries/list-universities.ts",
      "lib/queries/patch-runs.ts",
      "lib/queries/rank.ts",
      "lib/queries/ranked-details.ts",
      "lib/queries/rankings.ts",
      "lib/queries/scan-diff.ts",
      "lib/queries/scan-history.ts",
      "lib/queries/scan-totals.ts",
      "lib/queries/university-ranking.ts",
      "lib/queries/university-scores.ts",
      "lib/scores/tenths.ts",
      "lib/steps/run-steps.ts",
    ],
    why: "the spliced JSON of rankings, universities, their lists, scores and comparisons is built from the core's internals (rankings, details, latest scores, a ranking by profile, a list's page without its rows, the parsing of ids, a scan's stored row, a diff's checks from stored evidence, every university's history read in batches, the completed scans counted against the histories' bound), per data generation, and patched as they are; its builds pause as the core's do (`letOthersRun`), and it keeps scores in the core's codes of tenths (`tenthsCode`)",
  },
  "src/http/health.ts": {
    files: ["lib/db/shared-read.ts"],
    why: "the answers to /health of one millisecond share one run of the checks, as the core's database check does",
  },
  "src/http/app.ts": {
    files: ["lib/db/generation.ts"],
    why: "the response cache keys its entries by the data generation",
  },
  "src/db/bun-postgres-dialect.ts": {
    files: ["lib/db/postgres-family.ts"],
    why: "one base for unirank's PostgreSQL dialects (Kysely's compiler, adapter, introspector and transactions), shared with PGlite's",
  },
  "src/server.ts": {
    files: ["lib/db/generation.ts"],
    why: "the server sets how long a write by another process may go unseen (--data-window)",
  },
  // A scan process loads what a scan needs: the indexes would load every query, writer, migration and the
  // webhook worker into each of them (docs/performance.md, "Scanning: scan processes and Chromium").
  "src/scanner/scan-process.ts": {
    files: ["lib/write/validate-record.ts"],
    why: "the evidence cap, without the core's index in every scan process",
  },
  "src/scanner/scan-university.ts": {
    files: ["lib/scores/derive.ts", "lib/time/format.ts"],
    why: "composites and timestamps of a scan, without the core's index in every scan process",
  },
  "src/scanner/scan-context.ts": {
    files: ["lib/node/address-guard.ts"],
    why: "the address guard, without unirank/node's delivery worker and file sources in every scan process",
  },
};

test("the public indexes say what they export: no `export *`", () => {
  const star = PUBLIC_INDEXES.filter((f) => /^\s*export\s*\*/m.test(readFileSync(join(ROOT, f), "utf8")));
  expect(star).toEqual([]);
});

test("the adapters reach the core only through its public indexes, or for a named reason", () => {
  const allowed = (file: string, target: string) =>
    PUBLIC_INDEXES.includes(target) ||
    Object.entries(CORE_INTERNALS_USED).some(
      ([where, { files }]) => (file === where || file.startsWith(where)) && files.includes(target),
    );
  const past = [...fileGraph].flatMap(([file, targets]) =>
    file.startsWith("src/")
      ? [...targets].filter((t) => t.startsWith("lib/") && !allowed(file, t)).map((t) => `${file} → ${t}`)
      : [],
  );
  expect(past).toEqual([]);
  // Every exception is still needed.
  for (const [where, { files }] of Object.entries(CORE_INTERNALS_USED)) {
    const used = [...fileGraph]
      .filter(([file]) => file === where || file.startsWith(where))
      .flatMap(([, targets]) => [...targets]);
    expect(
      files.filter((f) => !used.includes(f)),
      where,
    ).toEqual([]);
  }
});

/** Files and packages a file loads when it runs: its static imports that are not type-only, followed through. */
function staticReach(entry: string): { files: string[]; packages: string[] } {
  const VALUE_IMPORT =
    /(?:^|\n)\s*(?:import|export)\s+(?!type\s)[^;]*?\sfrom\s+["']([^"']+)["']|(?:^|\n)\s*import\s+["']([^"']+)["']/g;
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const m of readFileSync(join(ROOT, file), "utf8").matchAll(VALUE_IMPORT)) {
      const spec = (m[1] ?? m[2]) as string;
      if (!spec.startsWith(".")) packages.add(spec);
      else if (spec.endsWith(".ts")) visit(relative(ROOT, resolve(ROOT, dirname(file), spec)));
    }
  };
  visit(entry);
  return { files: [...files].sort(), packages: [...packages].sort() };
}

test("`unirank --help` and `--version` load no server, HTTP, database or core code: commands load what they run", () => {
  const { files, packages } = staticReach("src/cli.ts");
  expect(files.length).toBeGreaterThan(5);
  const heavy = files.filter(
    (f) =>
      f.startsWith("lib/") ||
      f.startsWith("explorer/") ||
      /^src\/(http|db)\//.test(f) ||
      f === "src/server.ts" ||
      f === "src/config.ts" ||
      (f.startsWith("src/scanner/") &&
        f !== "src/scanner/scanner-defaults.ts" &&
        f !== "src/scanner/resolver-address.ts"),
  );
  expect(heavy).toEqual([]);
  expect(packages.filter((p) => !p.startsWith("node:") && p !== "commander")).toEqual([]);
});

test("a scan process loads the scanner only: no core index, queries, storage, HTTP or Chromium driver", () => {
  const { files, packages } = staticReach("src/scanner/scan-process.ts");
  expect(files).toContain("src/scanner/collect.ts");
  const heavy = files.filter(
    (f) =>
      f === "lib/index.ts" ||
      f === "lib/node/index.ts" ||
      /^lib\/(queries|db|migrations|import|export|access|webhooks)\//.test(f) ||
      /^src\/(http|db|cli)\//.test(f) ||
      f === "src/server.ts",
  );
  expect(heavy).toEqual([]);
  // Chromium's driver is loaded when a browser measurement starts.
  expect(packages.filter((p) => p === "playwright-core" || p === "kysely" || p === "csv-parse")).toEqual([]);
});
