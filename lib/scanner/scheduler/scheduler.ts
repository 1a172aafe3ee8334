import { isUnirankError } from "../../errors.ts";
import type { DB } from "../../schema/database.ts";
import { type Clock, isoTimestamp, parseTimestamp, systemClock } from "../../time/format.ts";
import { IngestRejectedError } from "../../write/write-records.ts";
import type { Availability } from "../observations.ts";
import { recordScanOutcome, recordScanStart } from "../record-scan.ts";
import { failedOutcome, type ScanOutcome, type ScanTarget } from "../scan-outcome.ts";
import {
  availabilityBetween,
  claimDueProbes,
  type ProbeResult,
  pruneProbes,
  recordProbes,
} from "./availability-probes.ts";
import {
  type ClaimedScan,
  claimDueScans,
  countDue,
  ensureClaimRows,
  finishClaim,
  renewLeases,
} from "./claims.ts";
import { closeExpiredLeases } from "./expired-leases.ts";

/** Scans one university; must end (failed is fine) soon after `signal` aborts. */
export type ScanFunction = (
  target: ScanTarget,
  options: { availability: Availability },
  signal: AbortSignal,
) => Promise<ScanOutcome>;

/** One availability probe of a university's home page. */
export type AvailabilityProbe = (domain: string, signal: AbortSignal) => Promise<ProbeResult>;

export type SchedulerLog = (
  level: "info" | "warn" | "error",
  message: string,
  fields?: Record<string, unknown>,
) => void;

/** What the scheduler reports as it works (metrics): a scan of its own stored, a lapsed claim taken over. */
export type SchedulerEvent =
  | { type: "scan"; status: "completed" | "failed"; seconds: number }
  | { type: "takeover" };

export interface SchedulerOptions {
  /** This server's name on its leases: unique among the servers sharing the database. */
  owner: string;
  /** A university is rescanned once its latest completed scan is this old. */
  everyMs: number;
  /** Most scans at once in this server. */
  concurrency: number;
  scan: ScanFunction;
  /** Availability probes every this long per university; 0 (default) turns them off. */
  probeEveryMs?: number;
  probe?: AvailabilityProbe;
  /** Most probes at once (default 8). */
  probeConcurrency?: number;
  /** Lease of a claim, renewed while the scan runs (default 10 minutes). */
  leaseMs?: number;
  /** A failed attempt is retried after this long (default the interval, at most one day). */
  retryMs?: number;
  /** After a claim found fewer due universities than it could take, the next claim waits this long (15 s). */
  recheckMs?: number;
  clock?: Clock;
  newId?: () => string;
  log?: SchedulerLog;
  observe?: (event: SchedulerEvent) => void;
}

/** What `/health` shows of the scheduler. */
export interface SchedulerState {
  running: number;
  /** Universities due and not yet claimed, as of the last tick. */
  backlog: number;
  last_error: { at: string; domain?: string; reason: string } | null;
  /** Scans this server finished since it started. */
  completed: number;
  failed: number;
  /** The scheduler's own last step failed (the database, not a site). */
  broken: boolean;
  /** Scans whose result waits in memory for the storage to take it (a full disk); retried at every tick. */
  unstored: number;
}

interface Attempt {
  claim: ClaimedScan;
  /** `performance.now()` when it started. */
  began: number;
  controller: AbortController;
  done: Promise<void>;
  abandoned: boolean;
  /** A write of this attempt failed and waits for the next tick to be tried again. */
  unstored: boolean;
}

const DAY = 86_400_000;
const REFRESH_MS = 60_000;

/**
 * Continuous scanning. Each `tick` (the caller's timer, or a test's hand) leases due universities, starts their
 * scans in the background, renews the leases of the scans in progress and probes availability. Scans are paced
 * so that every university is scanned once per interval: the allowance grows by `universities / every` per
 * millisecond, capped at the concurrency, so a backlog is spread over the interval instead of scanned at once.
 */
export class ScanScheduler {
  private readonly attempts = new Map<string, Attempt>();
  private readonly probesInFlight = new Set<Promise<void>>();
  private readonly clock: Clock;
  private readonly leaseMs: number;
  private readonly retryMs: number;
  private readonly probeEveryMs: number;
  private budget = 1;
  private probeBudget = 1;
  private lastTick: number | null = null;
  private lastRefresh = Number.NEGATIVE_INFINITY;
  private lastRenew = Number.NEGATIVE_INFINITY;
  private quietUntil = Number.NEGATIVE_INFINITY;
  private universities = 0;
  private stopping: string | null = null;
  private current: SchedulerState = {
    running: 0,
    backlog: 0,
    last_error: null,
    completed: 0,
    failed: 0,
    broken: false,
    unstored: 0,
  };
  /** Writes waiting for the next tick to try again (`untilStored`). */
  private retries: (() => void)[] = [];

  constructor(
    private readonly db: DB,
    private readonly options: SchedulerOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.leaseMs = options.leaseMs ?? 600_000;
    this.retryMs = options.retryMs ?? Math.min(options.everyMs, DAY);
    this.probeEveryMs = options.probe ? (options.probeEveryMs ?? 0) : 0;
  }

  state(): SchedulerState {
    let unstored = 0;
    for (const a of this.attempts.values()) if (a.unstored) unstored++;
    return { ...this.current, running: this.attempts.size, unstored };
  }

  /** One step: claim and start what is due, renew leases, probe. Never throws; a failure shows in `state()`. */
  async tick(): Promise<void> {
    if (this.stopping) return;
    for (const retry of this.retries.splice(0)) retry();
    try {
      await this.step();
      this.current.broken = false;
    } catch (e) {
      this.current.broken = true;
      this.noteError(undefined, `scheduler: ${e instanceof Error ? e.message : String(e)}`);
      this.options.log?.("error", "scan scheduler step failed", { error: String(e) });
    }
  }

  private async step(): Promise<void> {
    const now = this.clock();
    const elapsed = this.lastTick === null ? 0 : Math.max(0, now.getTime() - this.lastTick);
    this.lastTick = now.getTime();
    const refreshed = now.getTime() - this.lastRefresh >= REFRESH_MS;
    if (refreshed) {
      await ensureClaimRows(this.db);
      const row = await this.db
        .selectFrom("scan_claims")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirst();
      this.universities = Number(row?.n ?? 0);
      const keep = Math.max(this.options.everyMs, this.probeEveryMs) * 2;
      if (this.probeEveryMs > 0) await pruneProbes(this.db, new Date(now.getTime() - keep));
      this.lastRefresh = now.getTime();
    }
    const { concurrency, everyMs } = this.options;
    this.budget = Math.min(Math.max(concurrency, 1), this.budget + (elapsed * this.universities) / everyMs);
    // Leases are renewed a third of the way through, so a live server never lets one lapse.
    if (this.attempts.size > 0 && now.getTime() - this.lastRenew >= this.leaseMs / 3) {
      await renewLeases(this.db, this.options.owner, [...this.attempts.keys()], now, this.leaseMs);
      this.lastRenew = now.getTime();
    }
    const rule = { now, everyMs, retryMs: this.retryMs };
    // Attempts of servers that stopped without storing them are closed (failed) before anything is claimed.
    for (const closed of await closeExpiredLeases(this.db, {
      now,
      clock: this.clock,
      spare: this.options.owner,
    })) {
      this.current.failed++;
      this.noteError(closed.domain, closed.reason);
      this.options.observe?.({ type: "takeover" });
      this.options.log?.("warn", "scan failed", { domain: closed.domain, reason: closed.reason });
    }
    // Nothing was due at the last look: no claim (a transaction over every university) until the recheck.
    const room =
      now.getTime() < this.quietUntil
        ? 0
        : Math.min(concurrency - this.attempts.size, Math.floor(this.budget));
    const claims = await claimDueScans(this.db, {
      ...rule,
      owner: this.options.owner,
      limit: room,
      leaseMs: this.leaseMs,
      newAttemptId: () => `scheduler:${this.options.newId?.() ?? crypto.randomUUID()}`,
    });
    this.budget -= claims.length;
    if (room > 0 && claims.length < room)
      this.quietUntil = now.getTime() + (this.options.recheckMs ?? 15_000);
    for (const claim of claims) this.start(claim);
    // Counted after a claim and once a minute: a count over every university is not for every tick.
    // A look that claimed nothing found nothing due.
    if (claims.length > 0 || refreshed) this.current.backlog = await countDue(this.db, rule);
    else if (room > 0) this.current.backlog = 0;
    if (this.probeEveryMs > 0) await this.probeStep(now, elapsed);
  }

  private async probeStep(now: Date, elapsed: number): Promise<void> {
    const most = this.options.probeConcurrency ?? 8;
    this.probeBudget = Math.min(most, this.probeBudget + (elapsed * this.universities) / this.probeEveryMs);
    const room = Math.min(most - this.probesInFlight.size, Math.floor(this.probeBudget));
    const targets = await claimDueProbes(this.db, { now, everyMs: this.probeEveryMs, limit: room });
    this.probeBudget -= targets.length;
    for (const t of targets) {
      const p = this.probeOne(t.university_id, t.domain, now).finally(() => this.probesInFlight.delete(p));
      this.probesInFlight.add(p);
    }
  }

  private async probeOne(universityId: number, domain: string, at: Date): Promise<void> {
    const probe = this.options.probe as AvailabilityProbe;
    let result: ProbeResult;
    try {
      result = await probe(domain, new AbortController().signal);
    } catch (e) {
      result = { answered: false, error: e instanceof Error ? e.message : String(e) };
    }
    try {
      await recordProbes(this.db, [{ university_id: universityId, probed_at: at, result }]);
    } catch (e) {
      this.options.log?.("warn", "availability probe not stored", { domain, error: String(e) });
    }
  }

  private start(claim: ClaimedScan): void {
    const controller = new AbortController();
    const attempt: Attempt = {
      claim,
      began: performance.now(),
      controller,
      done: Promise.resolve(),
      abandoned: false,
      unstored: false,
    };
    attempt.done = this.run(attempt).finally(() => this.attempts.delete(claim.attempt_id));
    this.attempts.set(claim.attempt_id, attempt);
  }

  private async run(attempt: Attempt): Promise<void> {
    const { claim, controller } = attempt;
    try {
      // The scan is `running` from its claim on, moved on to completed or failed by `store`.
      await this.untilStored(attempt, () =>
        recordScanStart(this.db, { source_id: claim.attempt_id, domain: claim.domain }, claim.started_at, {
          clock: this.clock,
          now: this.clock(),
        }),
      );
      // The scan period: one interval up to the claim (probes of the claiming tick itself are not counted).
      const until = parseTimestamp(claim.started_at) ?? this.clock();
      const since = new Date(until.getTime() - this.options.everyMs);
      const availability = await availabilityBetween(this.db, claim.university_id, since, until);
      let outcome: ScanOutcome;
      try {
        outcome = await this.options.scan(
          { domain: claim.domain, name: claim.name, country: claim.country },
          { availability },
          controller.signal,
        );
      } catch (e) {
        outcome = this.failure(claim, e instanceof Error ? e.message : String(e));
      }
      if (controller.signal.aborted) outcome = this.failure(claim, this.stopping ?? "scan aborted");
      if (attempt.abandoned) return;
      let stored: ScanOutcome = outcome;
      await this.untilStored(attempt, async () => {
        stored = await this.store(claim, claim.attempt_id, outcome, availability, attempt.began);
      });
      await this.untilStored(attempt, () =>
        finishClaim(this.db, claim.attempt_id, {
          status: stored.status,
          error: stored.failure_reason ?? undefined,
        }),
      );
    } catch (e) {
      this.noteError(claim.domain, `scan not stored: ${e instanceof Error ? e.message : String(e)}`);
      this.options.log?.("error", "scan not stored", { domain: claim.domain, error: String(e) });
    }
  }

  /**
   * Runs one write of an attempt until the storage takes it: after a failure (a full disk, an unwritable file) the
   * attempt keeps its result in memory and its lease renewed, and the write is tried again at the next tick. Only
   * a stop ends the retries (the write is tried once more, and its failure is the attempt's), and a record the
   * writer refuses is not retried.
   */
  private async untilStored(attempt: Attempt, write: () => Promise<unknown>): Promise<void> {
    for (;;) {
      try {
        await write();
        if (attempt.unstored) {
          attempt.unstored = false;
          this.options.log?.("info", "scan stored after retrying", { domain: attempt.claim.domain });
        }
        return;
      } catch (e) {
        // A record the writer refuses (another server stored this attempt already) is refused again: no retry.
        if (this.stopping || e instanceof IngestRejectedError || isUnirankError(e)) throw e;
        const error = e instanceof Error ? e.message : String(e);
        if (!attempt.unstored)
          this.options.log?.("error", "scan not stored yet; retrying at the next tick", {
            domain: attempt.claim.domain,
            error,
          });
        attempt.unstored = true;
        this.noteError(attempt.claim.domain, `scan not stored yet, retrying: ${error}`);
        await new Promise<void>((resolve) => this.retries.push(resolve));
      }
    }
  }

  private failure(claim: ClaimedScan, reason: string): ScanOutcome {
    return failedOutcome(reason, claim.started_at, isoTimestamp(this.clock()));
  }

  /**
   * Stores the scan (`recordScanOutcome`): a completed one refreshes the rankings and notifies webhooks. `began`
   * (`performance.now()` at its start) marks a scan this server ran, reported with its duration.
   */
  private async store(
    claim: ClaimedScan,
    sourceId: string,
    outcome: ScanOutcome,
    availability?: Availability,
    began?: number,
  ): Promise<ScanOutcome> {
    const stored = await recordScanOutcome(this.db, { source_id: sourceId, domain: claim.domain }, outcome, {
      availability,
      clock: this.clock,
      now: this.clock(),
    });
    if (began !== undefined) {
      this.options.observe?.({
        type: "scan",
        status: stored.status,
        seconds: (performance.now() - began) / 1000,
      });
    }
    if (stored.status === "completed") this.current.completed++;
    else {
      this.current.failed++;
      this.noteError(claim.domain, stored.failure_reason ?? "failed");
    }
    this.options.log?.(stored.status === "completed" ? "info" : "warn", `scan ${stored.status}`, {
      domain: claim.domain,
      ...(stored.failure_reason ? { reason: stored.failure_reason } : {}),
    });
    return stored;
  }

  private noteError(domain: string | undefined, reason: string): void {
    this.current.last_error = { at: isoTimestamp(this.clock()), ...(domain ? { domain } : {}), reason };
  }

  /** Resolves when the scans and probes started so far have ended and been stored. */
  async settle(): Promise<void> {
    while (this.attempts.size > 0 || this.probesInFlight.size > 0) {
      await Promise.all([...[...this.attempts.values()].map((a) => a.done), ...this.probesInFlight]);
    }
  }

  /**
   * Stops claiming, aborts the scans in progress and stores them as failed with `reason`. A scan that does not
   * end within `graceMs` is stored as failed all the same and its claim released (its university due again at
   * once); its late result is dropped.
   */
  async stop(reason = "server stopped", graceMs = 5_000): Promise<void> {
    this.stopping = reason;
    for (const retry of this.retries.splice(0)) retry();
    const attempts = [...this.attempts.values()];
    for (const a of attempts) a.controller.abort(new Error(reason));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = await Promise.race([
      Promise.all(attempts.map((a) => a.done)).then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (late) {
      for (const a of this.attempts.values()) {
        a.abandoned = true;
        const failure = this.failure(a.claim, `${reason} (the scan did not end in time)`);
        await this.store(a.claim, a.claim.attempt_id, failure, undefined, a.began).catch(() => {});
        await finishClaim(this.db, a.claim.attempt_id, { status: "released" }).catch(() => {});
      }
    }
    await Promise.all([...this.probesInFlight]);
  }
}
