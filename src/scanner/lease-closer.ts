import { closeExpiredLeases, type DB } from "../../lib/index.ts";
import type { Logger } from "../logger.ts";

/**
 * In a `serve` that does not scan: closes the scans left `running` by scanning servers that stopped without
 * storing them (`closeExpiredLeases`), at start and then every `everyMs` (a minute). Stopped with the result.
 */
export function closeLeasesEvery(db: DB, log: Logger, everyMs = 60_000): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const pass = () => {
    running ??= closeExpiredLeases(db)
      .then((closed) => {
        for (const c of closed) log("warn", "scan failed", { domain: c.domain, reason: c.reason });
      })
      .catch((e) => log("warn", "expired scan leases not closed", { error: String(e) }))
      .finally(() => {
        running = null;
      });
  };
  pass();
  const timer = setInterval(pass, everyMs);
  timer.unref?.();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
