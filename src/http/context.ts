import type { Clock, DB, HealthProbes } from "../../lib/index.ts";

/** What every route needs, given once when the app is built. */
export interface AppContext {
  db: DB;
  version: string;
  clock: Clock;
  probes: HealthProbes;
  minFreeDiskGb: number;
  log: (level: "info" | "warn" | "error", message: string, fields?: Record<string, unknown>) => void;
}
