import type { Clock, DB, HostChecks, SchedulerState } from "../../lib/index.ts";
import type { AccessGuard } from "./access.ts";
import type { ResponseCache } from "./cache.ts";
import type { RequestObserver } from "./observer.ts";

/** What every route needs, given once when the app is built. */
export interface AppContext {
  db: DB;
  version: string;
  clock: Clock;
  /** What the host tells of itself for /health (free disk, log writes, storage). */
  hostChecks: HostChecks;
  minFreeDiskGb: number;
  /** The scan scheduler's state while `serve` scans (the `scanner` check of /health). */
  scanner?: () => SchedulerState;
  /**
   * Response cache of public GET answers, invalidated by the data generation. Omitted: the app makes its
   * own (default size); `false`: no caching.
   */
  cache?: ResponseCache | false;
  log: (level: "info" | "warn" | "error", message: string, fields?: Record<string, unknown>) => void;
  /** Access control (keys, rate limits, HMAC, audit) before v1/v2 handlers; omitted: none (serve always sets it). */
  access?: AccessGuard;
  /** Told of every answered request (metrics, the access log); omitted: nothing is measured. */
  observer?: RequestObserver;
}
