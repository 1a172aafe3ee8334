import { accessSync, constants, mkdirSync, statfsSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { HealthProbes } from "../lib/index.ts";

/** Health probes of this host: free disk where the database is, a real write into the log directory. */
export function hostProbes(options: {
  dbPath: string;
  logDir: string;
  cacheEntries?: () => number;
}): HealthProbes {
  return {
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
}
