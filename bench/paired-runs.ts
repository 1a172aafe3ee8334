/** An endpoint's figures and its share of the ceiling from pairs of short load runs (`bench/run.ts`). */
import { median } from "./median.ts";

/** What one load run prints (bench/load.lua, bench/load-autocannon.mjs). */
export interface LoadFigures {
  requests: number;
  duration_us: number;
  bytes: number;
  errors: Record<string, number>;
  status_codes?: Record<string, number>;
  latency_us: { p50: number; p90: number; p99: number; max: number; mean: number };
}

/** Requests a second of a load run. */
export const rate = (f: LoadFigures): number => Math.round(f.requests / (f.duration_us / 1e6));

/** Counts of two runs added up by kind. */
function addCounts(a: Record<string, number>, b: Record<string, number> | undefined): Record<string, number> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b ?? {})) out[k] = (out[k] ?? 0) + v;
  return out;
}

/**
 * Runs of one endpoint as one: requests, time, bytes, errors and status codes added up; p50 and p99 the middle of
 * the runs' own (a loader gives percentiles, not the latencies behind them), max the largest, mean by requests.
 */
export function mergedFigures(runs: readonly LoadFigures[]): LoadFigures {
  const requests = runs.reduce((n, f) => n + f.requests, 0);
  const codes = runs.some((f) => f.status_codes)
    ? runs.reduce<Record<string, number>>((c, f) => addCounts(c, f.status_codes), {})
    : undefined;
  return {
    requests,
    duration_us: runs.reduce((n, f) => n + f.duration_us, 0),
    bytes: runs.reduce((n, f) => n + f.bytes, 0),
    errors: runs.reduce<Record<string, number>>((e, f) => addCounts(e, f.errors), {}),
    ...(codes ? { status_codes: codes } : {}),
    latency_us: {
      p50: median(runs.map((f) => f.latency_us.p50)),
      p90: median(runs.map((f) => f.latency_us.p90)),
      p99: median(runs.map((f) => f.latency_us.p99)),
      max: Math.max(...runs.map((f) => f.latency_us.max)),
      mean: runs.reduce((n, f) => n + f.latency_us.mean * f.requests, 0) / Math.max(1, requests),
    },
  };
}

/** An endpoint's figures from pairs of runs, and its share of the ceiling: the middle of the pairs' shares. */
export interface PairedFigures {
  figures: LoadFigures;
  /** The ceiling's requests a second over its runs of the pairs. */
  ceilingRps: number;
  ratio: number;
  /** The smallest and largest share of a pair. */
  range: [number, number];
}

/**
 * `pairs` pairs of runs, the ceiling's and the endpoint's one after the other; which goes first alternates, so that
 * neither always follows the other's load.
 */
export async function pairedRuns(
  pairs: number,
  runCeiling: () => Promise<LoadFigures>,
  runEndpoint: () => Promise<LoadFigures>,
): Promise<PairedFigures> {
  const own: LoadFigures[] = [];
  const ceilings: LoadFigures[] = [];
  const shares: number[] = [];
  for (let k = 0; k < pairs; k++) {
    let c: LoadFigures;
    let e: LoadFigures;
    if (k % 2 === 0) {
      c = await runCeiling();
      e = await runEndpoint();
    } else {
      e = await runEndpoint();
      c = await runCeiling();
    }
    ceilings.push(c);
    own.push(e);
    shares.push(rate(e) / Math.max(1, rate(c)));
  }
  return {
    figures: mergedFigures(own),
    ceilingRps: rate(mergedFigures(ceilings)),
    ratio: median(shares),
    range: [Math.min(...shares), Math.max(...shares)],
  };
}
