import { hostname } from "node:os";
import {
  type DB,
  type ScanFunction,
  ScanScheduler,
  type SchedulerEvent,
  type SchedulerState,
} from "../../lib/index.ts";
import type { Config } from "../config.ts";
import type { LogFunction as Logger } from "../logger.ts";
import { availabilityProbe } from "./availability-probe.ts";
import { ScanProcesses } from "./scan-processes.ts";
import type { ScanJobSettings, ScanRunner } from "./scan-runner.ts";

/** This process's name on its scan leases: host, process id and a random part (unique per start). */
export function scanOwner(): string {
  return `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
}

/** The scanner's settings in `serve` (`--scan-resolver`, `--scan-ports`, `--scan-chromium`, …), as data. */
export type ServeScanSettings = ScanJobSettings;

/**
 * The scan function `serve` runs: a scan run by `runner` (a scan process), given the availability of the scan
 * period (probes answered and made) for the uptime rubric.
 */
export function realScan(runner: ScanRunner): ScanFunction {
  return (target, { availability }, signal) =>
    runner(
      target,
      { startedAt: new Date(), availability: availability.total > 0 ? availability : null },
      signal,
    );
}

export interface ScanService {
  state(): SchedulerState;
  stop(reason: string): Promise<void>;
}

/**
 * Starts the scheduler inside `serve`: a tick a second (never two at once), each scan in a scan process of its
 * own (`--scan-concurrency` processes at most, each bounded by `--scan-memory`), the outcomes stored here through
 * the one recorder. Stopped with `stop`.
 */
export function startScanning(
  db: DB,
  config: Pick<Config, "scanEveryMs" | "scanConcurrency" | "probeEveryMs" | "scanLeaseMs" | "scanMemoryMb">,
  options: {
    log: Logger;
    settings?: ServeScanSettings;
    tickMs?: number;
    observe?: (event: SchedulerEvent) => void;
  },
): ScanService {
  const settings = options.settings ?? {};
  const processes = new ScanProcesses({
    size: config.scanConcurrency,
    settings,
    memoryMb: config.scanMemoryMb,
  });
  const scheduler = new ScanScheduler(db, {
    owner: scanOwner(),
    everyMs: config.scanEveryMs,
    concurrency: config.scanConcurrency,
    probeEveryMs: config.probeEveryMs,
    leaseMs: config.scanLeaseMs,
    scan: realScan(processes.scan),
    probe: availabilityProbe(settings),
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
    memory_mb: config.scanMemoryMb,
  });
  return {
    state: () => scheduler.state(),
    async stop(reason) {
      clearInterval(timer);
      await ticking;
      await scheduler.stop(reason);
      await processes.close();
    },
  };
}
