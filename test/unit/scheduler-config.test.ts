import { expect, test } from "bun:test";
import { loadConfig, parseDuration } from "../../src/config.ts";

test("durations: s, m, h, d; a bare number is seconds; 0 is off", () => {
  expect(parseDuration("x", "30d")).toBe(30 * 86_400_000);
  expect(parseDuration("x", "12h")).toBe(12 * 3_600_000);
  expect(parseDuration("x", "90m")).toBe(90 * 60_000);
  expect(parseDuration("x", "45")).toBe(45_000);
  expect(parseDuration("x", "0")).toBe(0);
  for (const bad of ["", "1w", "-1d", "1.5h", "366d", "abc"]) expect(() => parseDuration("x", bad)).toThrow();
});

test("scanning is off by default; flags win over the environment", () => {
  const none = loadConfig({ db: ":memory:" }, {});
  expect([none.scanEveryMs, none.scanConcurrency, none.probeEveryMs, none.scanLeaseMs]).toEqual([
    0, 4, 3_600_000, 600_000,
  ]);
  const env = { UNIRANK_SCAN_EVERY: "7d", UNIRANK_SCAN_CONCURRENCY: "2", UNIRANK_PROBE_EVERY: "0" };
  const fromEnv = loadConfig({ db: ":memory:" }, env);
  expect([fromEnv.scanEveryMs, fromEnv.scanConcurrency, fromEnv.probeEveryMs]).toEqual([
    7 * 86_400_000,
    2,
    0,
  ]);
  const flags = loadConfig({ db: ":memory:", scanEvery: "30d", scanConcurrency: "8" }, env);
  expect([flags.scanEveryMs, flags.scanConcurrency]).toEqual([30 * 86_400_000, 8]);
  for (const n of ["0", "65", "x", "-1"])
    expect(() => loadConfig({ db: ":memory:", scanConcurrency: n }, {})).toThrow(
      "scan concurrency must be an integer from 1 to 64",
    );
  expect(() => loadConfig({ db: ":memory:", scanEvery: "soon" }, {})).toThrow(/scan interval/);
  expect(() => loadConfig({ db: ":memory:", scanLease: "1s" }, {})).toThrow(/scan lease/);
});
