import type { PartObservations, ScanEvidence } from "../../lib/scanner/evidence.ts";
import type { Availability, Observations } from "../../lib/scanner/observations.ts";
import { RUBRIC_VERSION } from "../../lib/scanner/rubric-version.ts";
import type { ScanOutcome as CoreScanOutcome } from "../../lib/scanner/scan-outcome.ts";
import { completeScores, scoreObservations } from "../../lib/scanner/score-observations.ts";
import type { CheckPoints, ScoredPart } from "../../lib/scores/check-points.ts";
import { fillDerivedScores } from "../../lib/scores/derive.ts";
import { type ProfilePartName, profileOf } from "../../lib/scores/profile.ts";
import { isoTimestamp } from "../../lib/time/format.ts";
import { VERSION } from "../version.ts";
import { collectObservations, ScanFailure } from "./collect.ts";
import { SCANNER_DEFAULTS, type ScanContext, type ScannerSettings, scanContext } from "./scan-context.ts";

/** A university to scan. */
export interface ScanTarget {
  domain: string;
  name?: string;
  country?: string;
  /** Availability probes answered over the period (from the scheduler); `tech_uptime_score` is null without. */
  availability?: Availability | null;
}

/** What a measurement part (browser, third-party source) gets besides the target. */
export interface PartContext {
  /** The own-site observations (the home page URL is `observations.home.url`). */
  observations: Observations;
  userAgent: string;
  signal: AbortSignal;
  /** `observations.home.url`, for parts that load the home page themselves. */
  homeUrl?: string;
}

/**
 * A measurement plugged into the scan: its scores replace the own-site ones and fill the null ones. A part that
 * measures when asked names itself in `profile` (the browser with a Chromium, a source that is on); its
 * `observations` are kept in the evidence under that name, so its sub-scores re-score too.
 */
export type ScanPart = ((
  target: ScanTarget,
  context: PartContext,
) => Promise<ScoredPart & { observations?: unknown }>) & { readonly profile?: ProfilePartName };

export interface ScanOptions extends ScannerSettings {
  /** Browser and third-party measurements; without them their sub-scores are null with the reason. */
  parts?: ScanPart[];
  /** The clock (tests). */
  now?: () => Date;
}

/** A scan's outcome as the scanner gives it: the core's shape, always with its evidence. */
export type ScanOutcome = CoreScanOutcome & { evidence: ScanEvidence };

/**
 * Scans one university: collects its own site and DNS, scores the observations, runs the parts, derives
 * composites and overall_score. Never throws for a site's fault: a site that cannot be scanned gives a
 * `failed` outcome with the reason.
 */
export async function scanUniversity(
  target: ScanTarget,
  options: ScanOptions = {},
  signal?: AbortSignal,
): Promise<ScanOutcome> {
  const now = options.now ?? (() => new Date());
  const started = now();
  const timeoutMs = options.scanTimeoutMs ?? SCANNER_DEFAULTS.scanTimeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const ctx: ScanContext = scanContext(options, VERSION, combined);
  const domain = target.domain.trim().toLowerCase();
  const failed = (reason: string): ScanOutcome => ({
    status: "failed",
    started_at: isoTimestamp(started),
    completed_at: isoTimestamp(now()),
    failure_reason: reason,
    scores: {},
    evidence: { observations: null, checks: [], unmeasured: {}, failure_reason: reason },
  });
  let observations: Observations;
  try {
    observations = await collectObservations(domain, ctx, started, target.availability ?? null);
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
  const scores = fillDerivedScores({ ...all.scores }) as ScanOutcome["scores"];
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
