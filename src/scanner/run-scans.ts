import { EVIDENCE_CHARS, fitEvidence } from "../../lib/scanner/evidence.ts";
import type { DB } from "../../lib/schema/database.ts";
import { isoTimestamp } from "../../lib/time/format.ts";
import type { ScanRecord } from "../../lib/write/records.ts";
import { writeRecords } from "../../lib/write/write-records.ts";
import { HostQueue } from "./host-queue.ts";
import { SCANNER_DEFAULTS } from "./scan-context.ts";
import { type ScanOptions, type ScanOutcome, type ScanTarget, scanUniversity } from "./scan-university.ts";

export interface RunScansOptions extends ScanOptions {
  /** Scans at once (default 8). */
  concurrency?: number;
  /** Called after each scan is written. */
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

/** The source id of a scan made by `unirank scan`: the domain and the second it started. */
export const scanSourceId = (domain: string, started: Date): string =>
  `unirank-scan:${domain}:${isoTimestamp(started)}`;

/**
 * Scans `targets` (stored universities), `concurrency` at a time, each written through the writer:
 * `running` when it starts, then `completed` with its scores or `failed` with the reason, and its evidence.
 */
export async function runScans(
  db: DB,
  targets: ScanTarget[],
  options: RunScansOptions = {},
): Promise<RunScansSummary> {
  const t0 = performance.now();
  const summary: RunScansSummary = { completed: 0, failed: 0, skipped: 0, seconds: 0 };
  const hosts = options.hosts ?? new HostQueue(options.delayMs ?? SCANNER_DEFAULTS.delayMs);
  const now = options.now ?? (() => new Date());
  let next = 0;
  const worker = async () => {
    for (;;) {
      if (options.signal?.aborted) return;
      const target = targets[next++];
      if (!target) return;
      const domain = target.domain.trim().toLowerCase();
      const started = now();
      const sourceId = scanSourceId(domain, started);
      const base = { type: "scan" as const, source_id: sourceId, domain };
      await writeRecords(db, [{ ...base, status: "running", started_at: isoTimestamp(started) }]);
      const outcome = await scanUniversity(target, { ...options, hosts, now: () => started }, options.signal);
      const completedAt = now();
      outcome.completed_at = isoTimestamp(completedAt);
      const record = {
        ...base,
        ...outcome.scores,
        status: outcome.status,
        started_at: isoTimestamp(started),
        completed_at: isoTimestamp(completedAt),
        evidence: fitEvidence(outcome.evidence, EVIDENCE_CHARS),
        ...(outcome.profile ? { profile: outcome.profile } : {}),
        ...(outcome.rubric_version ? { rubric_version: outcome.rubric_version } : {}),
      } as ScanRecord;
      try {
        await writeRecords(db, [record]);
      } catch (e) {
        // The writer refused the outcome (it should not): the scan is closed as failed, saying why.
        outcome.status = "failed";
        outcome.failure_reason = `the scan could not be stored: ${e instanceof Error ? e.message : String(e)}`;
        outcome.scores = {};
        await writeRecords(db, [
          {
            ...base,
            status: "failed",
            started_at: isoTimestamp(started),
            completed_at: isoTimestamp(completedAt),
            evidence: {
              observations: null,
              checks: [],
              unmeasured: {},
              failure_reason: outcome.failure_reason,
            },
          },
        ]);
      }
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
