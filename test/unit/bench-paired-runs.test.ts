import { describe, expect, test } from "bun:test";
import { type LoadFigures, mergedFigures, pairedRuns } from "../../bench/paired-runs.ts";

/** A load run of `requests` over one second. */
const run = (requests: number, p50 = 1000, p99 = 5000, errors: Record<string, number> = {}): LoadFigures => ({
  requests,
  duration_us: 1_000_000,
  bytes: requests * 100,
  errors,
  status_codes: { "200": requests },
  latency_us: { p50, p90: p50 * 2, p99, max: p99 * 2, mean: p50 },
});

describe("bench: pairs of runs", () => {
  test("the share is the middle of the pairs' shares, and the order of each pair alternates", async () => {
    const order: string[] = [];
    const ceilings = [100, 200, 100, 50, 100];
    const endpoints = [50, 40, 30, 50, 10];
    let c = 0;
    let e = 0;
    const paired = await pairedRuns(
      5,
      async () => {
        order.push("c");
        return run(ceilings[c++] as number);
      },
      async () => {
        order.push("e");
        return run(endpoints[e++] as number);
      },
    );
    expect(order.join("")).toBe("ceecceecce");
    // Shares 0.5, 0.2, 0.3, 1.0, 0.1: the middle one is 0.3, where the sums would give 180 / 550.
    expect(paired.ratio).toBeCloseTo(0.3, 10);
    expect(paired.range).toEqual([0.1, 1]);
    expect(paired.ceilingRps).toBe(110);
    expect(paired.figures.requests).toBe(180);
  });

  test("merged runs add up counts and time, and take the middle of their percentiles", () => {
    const merged = mergedFigures([
      run(10, 1000, 9000, { timeout: 1 }),
      run(20, 3000, 4000),
      run(30, 2000, 5000, { timeout: 2, connect: 1 }),
    ]);
    expect(merged.requests).toBe(60);
    expect(merged.duration_us).toBe(3_000_000);
    expect(merged.bytes).toBe(6000);
    expect(merged.errors).toEqual({ timeout: 3, connect: 1 });
    expect(merged.status_codes).toEqual({ "200": 60 });
    expect(merged.latency_us.p50).toBe(2000);
    expect(merged.latency_us.p99).toBe(5000);
    expect(merged.latency_us.max).toBe(18000);
    expect(merged.latency_us.mean).toBeCloseTo((10 * 1000 + 20 * 3000 + 30 * 2000) / 60, 10);
  });
});
