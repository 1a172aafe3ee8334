import { join } from "node:path";
import { startServe } from "./serve-process.ts";

const ROOT = join(import.meta.dir, "..", "..");

/** The requests made over and over while the import runs: one of each kind, in turn. */
export const PROBES = {
  health: "/health",
  v1: "/api/v1/universities/1",
  v2: "/api/v2/universities/1",
} as const;
export type ProbeName = keyof typeof PROBES;

export interface ProbeFigures {
  requests: number;
  /** Answers other than 200 (or a connection that failed), with their status. */
  failures: string[];
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface ImportWhileServing {
  importExitCode: number;
  importStderr: string;
  importSeconds: number;
  probes: Record<ProbeName, ProbeFigures>;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, i)] ?? 0) * 100) / 100;
}

/**
 * Starts `unirank serve` on `dbPath` (anonymous rate limit on, so every v1/v2 request writes the rate limiter and
 * every v2 one the audit log), then runs `unirank import FILE` into the same file in another process and, until it
 * exits, requests `/health`, a v1 and a v2 read in turn (`concurrency` loops), timing each.
 */
export async function importWhileServing(options: {
  dbPath: string;
  importFile: string;
  concurrency?: number;
}): Promise<ImportWhileServing> {
  const serve = await startServe(["--db", options.dbPath, "--rate-limit", "100000000"]);
  try {
    // Warm the server (first builds) before the import starts.
    for (const path of Object.values(PROBES)) await (await fetch(serve.url + path)).arrayBuffer();
    const latencies: Record<ProbeName, number[]> = { health: [], v1: [], v2: [] };
    const failures: Record<ProbeName, string[]> = { health: [], v1: [], v2: [] };
    const started = performance.now();
    const importer = Bun.spawn(["bun", "src/cli.ts", "import", options.importFile, "--db", options.dbPath], {
      cwd: ROOT,
      stdout: "ignore",
      stderr: "pipe",
    });
    let done = false;
    const exited = importer.exited.then((code) => {
      done = true;
      return code;
    });
    const names = Object.keys(PROBES) as ProbeName[];
    const loop = async (offset: number) => {
      for (let i = offset; !done; i++) {
        const name = names[i % names.length] as ProbeName;
        const t = performance.now();
        try {
          const res = await fetch(serve.url + PROBES[name]);
          await res.arrayBuffer();
          if (res.status !== 200) failures[name].push(`${res.status}`);
        } catch (e) {
          failures[name].push(String(e));
        }
        latencies[name].push(performance.now() - t);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency ?? 2 }, (_, i) => loop(i)));
    const [importExitCode, importStderr] = await Promise.all([exited, new Response(importer.stderr).text()]);
    const importSeconds = Math.round((performance.now() - started) / 100) / 10;
    const figures = (name: ProbeName): ProbeFigures => {
      const sorted = [...latencies[name]].sort((a, b) => a - b);
      return {
        requests: sorted.length,
        failures: failures[name],
        p50Ms: percentile(sorted, 50),
        p99Ms: percentile(sorted, 99),
        maxMs: percentile(sorted, 100),
      };
    };
    return {
      importExitCode,
      importStderr,
      importSeconds,
      probes: { health: figures("health"), v1: figures("v1"), v2: figures("v2") },
    };
  } finally {
    await serve.stop();
  }
}
