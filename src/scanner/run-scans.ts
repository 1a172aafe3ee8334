import { type DB, isoTimestamp, recordScanOutcome, recordScanStart } from "../../lib/index.ts";
import type { ScanOutcome, ScanTarget } from "../../lib/scanner/index.ts";
import type { ScanRunner } from "./scan-runner.ts";

export interface RunScansOptions {
  /** Runs one scan: in a scan process (`ScanProcesses.scan`), or in this process (`inProcessRunner`, tests). */
  scan: ScanRunner;
  /** Scans at once (default 8). */
  concurrency?: number;
  /** The clock (tests). */
  now?: () => Date;
  /** Called after each scan is stored, with the outcome as stored. */
  onScan?: (target: ScanTarget, outcome: ScanOutcome) => void;
  signal?: AbortSignal;
}

export interface RunScansSummary {
  completed: number;
  failed: number;
  /** Scans not started because the run was stopped. */
  skipped: number;
  seconds: number;
}

/**
 * The source id of a scan made by `unirank scan`: the domain, the second it started, and 8 random hex digits, so
 * two scans of one domain started in the same second (two quick runs) are two scans, not one refused.
 */
export const scanSourceId = (domain: string, started: Date): string =>
  `unirank-scan:${domain}:${isoTimestamp(started)}:${crypto.randomUUID().slice(0, 8)}`;

/**
 * Scans `targets` (stored universities), `concurrency` at a time, each stored as it goes: `running` when it
 * starts, then its outcome through `recordScanOutcome` (completed with its scores, or failed with the reason).
 */
export async function runScans(
  db: DB,
  targets: ScanTarget[],
  options: RunScansOptions,
): Promise<RunScansSummary> {
  const t0 = performance.now();
  const summary: RunScansSummary = { completed: 0, failed: 0, skipped: 0, seconds: 0 };
  const now = options.now ?? (() => new Date());
  let next = 0;
  const worker = async () => {
    for (;;) {
      if (options.signal?.aborted) return;
      const target = targets[next++];
      if (!target) return;
      const domain = target.domain.trim().toLowerCase();
      const started = now();
      const attempt = { source_id: scanSourceId(domain, started), domain };
      await recordScanStart(db, attempt, isoTimestamp(started));
      const scanned = await options.scan(target, { startedAt: started }, options.signal);
      const outcome = await recordScanOutcome(db, attempt, {
        ...scanned,
        completed_at: isoTimestamp(now()),
      });
      if (outcome.status === "completed") summary.completed++;
      else summary.failed++;
      options.onScan?.(target, outcome);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? 8, targets.length));
  await Promise.all(Array.from({ length: workers }, worker));
  summary.skipped = targets.length - summary.completed - summary.failed;
  summary.seconds = (performance.now() - t0) / 1000;
  return summary;
}
