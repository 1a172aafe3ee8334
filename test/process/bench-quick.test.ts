import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Results } from "../../bench/report.ts";

const ROOT = resolve(import.meta.dir, "../..");
const ENDPOINTS = [
  "rankings",
  "rankings-20",
  "rankings-deep",
  "search",
  "university",
  "compare",
  "leaderboard",
  "regressions",
  "scan-diff",
  "rankings-csv",
  "leaderboard-csv",
  "rankings-walk",
  "distribution",
  "history",
  "scan",
  "health",
];

// The benchmark's --quick mode (small dataset, a second of load per endpoint) runs once so the scripts
// cannot rot. It asserts that every endpoint answered 200 under load, never a speed.
test("bench --quick: every endpoint answers 200 under load", async () => {
  const dir = mkdtempSync(join(tmpdir(), "unirank-bench-quick-"));
  const out = join(dir, "results.json");
  try {
    const proc = Bun.spawn(
      [process.execPath, "bench/run.ts", "--quick", "--out", out, "--data-dir", join(dir, "data")],
      {
        cwd: ROOT,
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new Error(`bench --quick exited ${code}:\n${stderr.slice(-3000)}`);
    const results = JSON.parse(readFileSync(out, "utf8")) as Results;
    expect(results.unavailable).toEqual([]);
    const ceiling = results.runs.find((r) => r.mode === "ceiling");
    expect(ceiling?.all_ok).toBe(true);
    for (const name of ENDPOINTS) {
      const runs = results.runs.filter((r) => r.name === name);
      expect(runs.length, name).toBeGreaterThan(0);
      for (const r of runs) {
        expect({ name, mode: r.mode, ok: r.all_ok, errors: r.error_kinds }).toEqual({
          name,
          mode: r.mode,
          ok: true,
          errors: r.error_kinds,
        });
        expect(r.requests, name).toBeGreaterThan(0);
        // Its share comes from pairs of runs, the ceiling's and its own.
        const [low, high] = r.ratio_range ?? [Number.NaN, Number.NaN];
        expect(r.ratio ?? Number.NaN, name).toBeGreaterThanOrEqual(low);
        expect(r.ratio ?? Number.NaN, name).toBeLessThanOrEqual(high);
      }
    }
    expect(results.import.rows).toBeGreaterThan(0);
    expect(results.cold_start.source_ms).toBeGreaterThan(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);
