import { accessSync, constants, mkdirSync, statfsSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { HealthProbes } from "../lib/index.ts";

/**
 * Remembers a probe's answer for `ms`: under load, /health would otherwise create and delete a file and
 * stat the disk on every request (most of its time in a CPU profile: docs/performance.md). The checks stay real, at most `ms` old.
 */
function fresh<T>(ms: number, probe: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    const now = performance.now();
    if (!last || now - last.at >= ms) last = { at: now, value: probe() };
    return last.value;
  };
}

/** Health probes of this host: free disk where the database is, a real write into the log directory. */
export function hostProbes(options: {
  dbPath: string;
  logDir: string;
  cacheEntries?: () => number;
  /** How long a disk or log probe's answer is reused (default 1000 ms; 0 = probe on every call). */
  probeEveryMs?: number;
}): HealthProbes {
  const every = options.probeEveryMs ?? 1000;
  const probes = {
    async freeDiskBytes() {
      const s = statfsSync(/^postgres/.test(options.dbPath) ? "." : dirname(options.dbPath));
      return Number(s.bavail) * Number(s.bsize);
    },
    async logsWritable() {
      try {
        mkdirSync(options.logDir, { recursive: true });
        accessSync(options.logDir, constants.W_OK);
        const probe = join(options.logDir, `.health-${process.pid}`);
        writeFileSync(probe, "ok");
        unlinkSync(probe);
        return true;
      } catch {
        return false;
      }
    },
    cacheEntries: options.cacheEntries ?? (() => 0),
  };
  return {
    freeDiskBytes: fresh(every, probes.freeDiskBytes),
    logsWritable: fresh(every, probes.logsWritable),
    cacheEntries: probes.cacheEntries,
  };
}
