import {
  type Availability,
  type CheckPoints,
  completeScores,
  failedOutcome,
  type Observations,
  type PartContext,
  type PartObservations,
  type ProfilePartName,
  profileOf,
  RUBRIC_VERSION,
  type ScanEvidence,
  type ScanOutcome,
  type ScanPart,
  type ScanTarget,
  type ScoredPart,
  scoreObservations,
} from "../../lib/scanner/index.ts";
import { deriveScores } from "../../lib/scores/derive.ts";
import { isoTimestamp } from "../../lib/time/format.ts";
import { VERSION } from "../version.ts";
import { collectObservations, ScanFailure } from "./collect.ts";
import { HostQueue } from "./host-queue.ts";
import { SCANNER_DEFAULTS, type ScanContext, type ScannerSettings, scanContext } from "./scan-context.ts";
import type { ScanRunner } from "./scan-runner.ts";

export interface ScanOptions extends ScannerSettings {
  /** Browser and third-party measurements; without them their sub-scores are null with the reason. */
  parts?: ScanPart[];
  /** The clock (tests). */
  now?: () => Date;
  /** When the scan started (default now): its stored `running` row's time. */
  startedAt?: Date;
  /** Availability probes answered over the scan period (from the scheduler); `tech_uptime_score` is null without. */
  availability?: Availability | null;
}

/**
 * Scans one university: collects its own site and DNS, scores the observations, runs the parts, derives
 * composites and overall_score. Never throws for a site's fault: a site that cannot be scanned gives a
 * `failed` outcome with the reason.
 */
export async function scanUniversity(
  target: ScanTarget,
  options: ScanOptions = {},
  signal?: AbortSignal,
): Promise<ScanOutcome & { evidence: ScanEvidence }> {
  const now = options.now ?? (() => new Date());
  const started = options.startedAt ?? now();
  const timeoutMs = options.scanTimeoutMs ?? SCANNER_DEFAULTS.scanTimeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const ctx: ScanContext = scanContext(options, VERSION, combined);
  const domain = target.domain.trim().toLowerCase();
  const failed = (reason: string) => failedOutcome(reason, isoTimestamp(started), isoTimestamp(now()));
  let observations: Observations;
  try {
    observations = await collectObservations(domain, ctx, started, options.availability ?? null);
  } catch (e) {
    ctx.pool.close();
    if (timeout.aborted) return failed(`the scan took longer than ${timeoutMs / 1000} s`);
    if (signal?.aborted) return failed(`scan stopped: ${String(signal.reason ?? "aborted")}`);
    if (e instanceof ScanFailure || (e instanceof Error && e.name !== "TypeError")) return failed(e.message);
    return failed(`scanner error: ${String(e)}`);
  }
  ctx.pool.close();
  const parts: ScoredPart[] = [scoreObservations(observations)];
  const partContext: PartContext = {
    observations,
    userAgent: ctx.userAgent,
    signal: combined,
    homeUrl: observations.home?.url,
    address: ctx.address,
  };
  const partErrors: CheckPoints[] = [];
  const ran: ProfilePartName[] = ["site"];
  if (observations.availability && observations.availability.total > 0) ran.push("availability");
  const partObservations: Record<string, unknown> = {};
  for (const part of options.parts ?? []) {
    if (part.profile) ran.push(part.profile);
    try {
      const { observations: seen, ...scored } = await part({ ...target, domain }, partContext);
      parts.push(scored);
      if (part.profile && seen !== undefined) partObservations[part.profile] = seen;
    } catch (e) {
      partErrors.push({
        id: "part.error",
        score: "overall_score",
        label: "Measurement failed",
        points: 0,
        max: 0,
        detail: e instanceof Error ? e.message : String(e),
        remediation: null,
      });
    }
  }
  const all = completeScores(parts);
  const scores = deriveScores(all.scores) as ScanOutcome["scores"];
  return {
    status: "completed",
    started_at: isoTimestamp(started),
    completed_at: isoTimestamp(now()),
    scores,
    profile: profileOf(ran),
    rubric_version: RUBRIC_VERSION,
    evidence: {
      observations,
      ...(Object.keys(partObservations).length > 0 ? { parts: partObservations as PartObservations } : {}),
      checks: [...all.checks, ...partErrors],
      unmeasured: all.unmeasured,
      ...(all.grades ? { grades: all.grades } : {}),
    },
  };
}

/** Scans in this process, one host queue shared by its scans: what a scan process runs (and tests, to inject parts). */
export function inProcessRunner(options: ScanOptions = {}): ScanRunner {
  const hosts = options.hosts ?? new HostQueue(options.delayMs ?? SCANNER_DEFAULTS.delayMs);
  return (target, { startedAt, availability }, signal) =>
    scanUniversity(target, { ...options, hosts, startedAt, availability: availability ?? null }, signal);
}
