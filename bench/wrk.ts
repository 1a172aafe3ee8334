import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pinned } from "./proc.ts";

const LOAD_LUA = resolve(import.meta.dir, "load.lua");

export interface WrkRun {
  base: string;
  /** Request paths the run cycles through (written to `dir`/paths.txt). */
  paths: string[];
  /** Appends a distinct `_=N` to every request, so no cache answers it. */
  bust: boolean;
  seconds: number;
  connections: number;
  dir: string;
  /**
   * Gives every request an `X-Forwarded-For` address of its own, from this index of 10.0.0.0/8 on (so many clients,
   * each under its rate limit, for a server that trusts the loopback as its proxy).
   */
  forwardedFrom?: number;
}

/** One wrk run of bench/load.lua, on core 1: req/s, p50 and p99 in ms, and errors (non-2xx answers included). */
export async function runWrk(run: WrkRun) {
  if (Bun.which("wrk") === null) throw new Error("wrk is not installed (Debian: apt-get install wrk)");
  const file = join(run.dir, "paths.txt");
  writeFileSync(file, `${run.paths.join("\n")}\n`);
  const cmd = ["wrk", "-t1", `-c${run.connections}`, `-d${run.seconds}s`, "--timeout", "10s", "-s", LOAD_LUA];
  cmd.push(run.base, "--", file, run.bust ? "bust" : "same");
  if (run.forwardedFrom !== undefined) cmd.push(String(run.forwardedFrom));
  const proc = Bun.spawn(pinned(1, cmd), { stdout: "pipe", stderr: "pipe" });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`wrk failed: ${await new Response(proc.stderr).text()}`);
  const line = out
    .trim()
    .split("\n")
    .reverse()
    .find((l) => l.startsWith("{"));
  const f = JSON.parse(line ?? "{}") as {
    requests: number;
    duration_us: number;
    errors: Record<string, number>;
    latency_us: { p50: number; p99: number };
  };
  const errors = Object.values(f.errors).reduce((a, b) => a + b, 0);
  return {
    rps: f.requests / (f.duration_us / 1e6),
    p50: f.latency_us.p50 / 1000,
    p99: f.latency_us.p99 / 1000,
    errors,
  };
}
