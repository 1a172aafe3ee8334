import { hostname } from "node:os";
import { type DB, type ScanFunction, ScanScheduler, type SchedulerState } from "../../lib/index.ts";
import type { ScanPart } from "../../lib/scanner/index.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { availabilityProbe } from "./availability-probe.ts";
import { HostQueue } from "./host-queue.ts";
import { SCANNER_DEFAULTS, type ScannerSettings } from "./scan-context.ts";
import { scanUniversity } from "./scan-university.ts";

/** This process's name on its scan leases: host, process id and a random part (unique per start). */
export function scanOwner(): string {
  return `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
}

/** The scanner's settings in `serve` (`--scan-resolver`, `--scan-ports`, …), with the browser and source parts. */
export type ServeScanSettings = ScannerSettings & { parts?: ScanPart[] };

/**
 * The scan function `serve` runs: the real scanner, one host queue shared by the server's scans, the
 * availability of the scan period (probes answered and made) handed over to the uptime rubric.
 */
export function realScan(settings: ServeScanSettings): ScanFunction {
  const hosts = settings.hosts ?? new HostQueue(settings.delayMs ?? SCANNER_DEFAULTS.delayMs);
  return (target, { availability }, signal) =>
    scanUniversity(
      target,
      { ...settings, hosts, availability: availability.total > 0 ? availability : null },
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
  options: { log: Logger; settings?: ServeScanSettings; tickMs?: number },
): ScanService {
  const scheduler = new ScanScheduler(db, {
    owner: scanOwner(),
    everyMs: config.scanEveryMs,
    concurrency: config.scanConcurrency,
    probeEveryMs: config.probeEveryMs,
    leaseMs: config.scanLeaseMs,
    scan: realScan(options.settings ?? {}),
    probe: availabilityProbe({ timeoutMs: options.settings?.requestTimeoutMs }),
    log: options.log,
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
