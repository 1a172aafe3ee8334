import { hostname } from "node:os";
import {
  type DB,
  type ProbeFunction,
  type ProbeResult,
  type ScanFunction,
  ScanScheduler,
  type SchedulerEvent,
  type SchedulerState,
} from "../lib/index.ts";
import type { Config } from "./config.ts";
import type { LogFunction as Logger } from "./logger.ts";
import { HostQueue } from "./scanner/host-queue.ts";
import { SCANNER_DEFAULTS, type ScannerSettings } from "./scanner/scan-context.ts";
import { type ScanPart, scanUniversity } from "./scanner/scan-university.ts";

/** This process's name on its scan leases: host, process id and a random part (unique per start). */
export function scanOwner(): string {
  return `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
}

/**
 * The availability probe: a HEAD of the home page (`https://<domain>/` unless `url` says otherwise), redirects
 * not followed. Answered means an HTTP status below 500 within the timeout.
 */
export function httpProbe(
  options: { timeoutMs?: number; url?: (domain: string) => string } = {},
): ProbeFunction {
  const url = options.url ?? ((domain: string) => `https://${domain}/`);
  const timeoutMs = options.timeoutMs ?? 10_000;
  return async (domain, signal): Promise<ProbeResult> => {
    try {
      const response = await fetch(url(domain), {
        method: "HEAD",
        redirect: "manual",
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      });
      await response.body?.cancel();
      const answered = response.status < 500;
      return {
        answered,
        status_code: response.status,
        ...(answered ? {} : { error: `HTTP ${response.status}` }),
      };
    } catch (e) {
      const name = e instanceof Error ? e.name : "";
      const error =
        name === "TimeoutError" ? `no answer in ${timeoutMs} ms` : e instanceof Error ? e.message : String(e);
      return { answered: false, error };
    }
  };
}

/** How `serve` scans: the scanner's settings (`--scan-resolver`, `--scan-ports`, …). */
/** The scanner's settings in `serve`, with the browser and source parts. */
export type ServeScanSettings = ScannerSettings & { parts?: ScanPart[] };

/**
 * The scan function `serve` runs: the real scanner, one host queue shared by the server's scans, the probes'
 * `{answered, total}` handed over as its availability input.
 */
export function realScan(settings: ServeScanSettings): ScanFunction {
  const hosts = settings.hosts ?? new HostQueue(settings.delayMs ?? SCANNER_DEFAULTS.delayMs);
  return (target, options, signal) =>
    scanUniversity(
      { ...target, availability: options.uptime.total > 0 ? options.uptime : null },
      { ...settings, hosts },
      signal,
    );
}

export interface ScanService {
  state(): SchedulerState;
  stop(reason: string): Promise<void>;
}

/** Starts the scheduler inside `serve`: a tick a second (never two at once), stopped with `stop`. */
export function startScanning(
  db: DB,
  config: Pick<Config, "scanEveryMs" | "scanConcurrency" | "probeEveryMs" | "scanLeaseMs">,
  options: {
    log: Logger;
    settings?: ServeScanSettings;
    tickMs?: number;
    observe?: (event: SchedulerEvent) => void;
  },
): ScanService {
  const scheduler = new ScanScheduler(db, {
    owner: scanOwner(),
    everyMs: config.scanEveryMs,
    concurrency: config.scanConcurrency,
    probeEveryMs: config.probeEveryMs,
    leaseMs: config.scanLeaseMs,
    scan: realScan(options.settings ?? {}),
    probe: httpProbe({ timeoutMs: options.settings?.requestTimeoutMs }),
    log: options.log,
    observe: options.observe,
  });
  let ticking: Promise<void> | null = null;
  const tick = () => {
    ticking ??= scheduler.tick().finally(() => {
      ticking = null;
    });
  };
  tick();
  const timer = setInterval(tick, options.tickMs ?? 1000);
  options.log("info", "scanning", {
    every_ms: config.scanEveryMs,
    concurrency: config.scanConcurrency,
    probe_every_ms: config.probeEveryMs,
  });
  return {
    state: () => scheduler.state(),
    async stop(reason) {
      clearInterval(timer);
      await ticking;
      await scheduler.stop(reason);
    },
  };
}
