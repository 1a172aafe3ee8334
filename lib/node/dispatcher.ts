import type { DB } from "../schema/database.ts";
import { type Clock, systemClock } from "../time/format.ts";
import { type ClaimedDelivery, claimDeliveries, type FinalState, finishAttempt } from "../webhooks/claim.ts";
import { DEFAULT_TIMEOUT_MS, type SendOptions, sendDelivery } from "./send.ts";

export type DeliveryLog = (
  level: "info" | "warn" | "error",
  message: string,
  fields?: Record<string, unknown>,
) => void;

export interface DeliveryOptions extends Omit<SendOptions, "signal" | "clock"> {
  clock?: Clock;
  /** Deliveries in flight at once, over all receivers (default 8). */
  concurrency?: number;
  /** Deliveries of one receiver in flight at once (default 2), so a slow receiver holds at most this many slots. */
  perReceiver?: number;
  /** Retry delays in seconds (default `RETRY_SCHEDULE_SECONDS`). */
  schedule?: readonly number[];
  jitter?: number;
  random?: () => number;
  /** Lease on a claimed delivery (default 2 × timeout + 5 s): past it, a crashed sender's delivery is taken over. */
  leaseMs?: number;
  /** How often an idle background worker looks for due deliveries (default 1 s). */
  pollMs?: number;
  /** Names this worker in leases and the attempt log (default a random id). */
  workerId?: string;
  log?: DeliveryLog;
}

export interface PassSummary {
  delivered: number;
  retrying: number;
  failed: number;
  released: number;
}

/** Claims deliveries as slots free up and sends them concurrently; shared by the one-off pass and the worker. */
class Dispatcher {
  readonly inFlight = new Map<number, Promise<void>>();
  readonly perReceiver = new Map<number, number>();
  readonly summary: PassSummary = { delivered: 0, retrying: 0, failed: 0, released: 0 };
  readonly stop = new AbortController();
  readonly clock: Clock;
  readonly concurrency: number;
  readonly perReceiverLimit: number;
  readonly worker: string;
  readonly leaseMs: number;

  constructor(
    readonly db: DB,
    readonly options: DeliveryOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.concurrency = Math.max(1, options.concurrency ?? 8);
    this.perReceiverLimit = Math.max(1, options.perReceiver ?? 2);
    this.worker = options.workerId ?? `worker-${crypto.randomUUID().slice(0, 8)}`;
    this.leaseMs = options.leaseMs ?? 2 * (options.timeoutMs ?? DEFAULT_TIMEOUT_MS) + 5000;
  }

  /** Attempts ended so far: a claim that ran while one ended may have left its receiver out as busy. */
  finished = 0;

  get free(): number {
    return this.concurrency - this.inFlight.size;
  }

  /** Claims what fits in the free slots and starts sending; returns how many started. */
  async fill(): Promise<number> {
    if (this.free <= 0 || this.stop.signal.aborted) return 0;
    const busy = [...this.perReceiver].filter(([, n]) => n >= this.perReceiverLimit).map(([r]) => r);
    const claimed = await claimDeliveries(this.db, {
      now: this.clock(),
      limit: this.free,
      leaseMs: this.leaseMs,
      worker: this.worker,
      excludeReceivers: busy,
      perReceiver: this.perReceiverLimit,
    });
    for (const d of claimed) this.start(d);
    return claimed.length;
  }

  private start(d: ClaimedDelivery): void {
    this.perReceiver.set(d.receiver_id, (this.perReceiver.get(d.receiver_id) ?? 0) + 1);
    const run = this.send(d).finally(() => {
      this.finished++;
      this.inFlight.delete(d.id);
      const n = (this.perReceiver.get(d.receiver_id) ?? 1) - 1;
      if (n <= 0) this.perReceiver.delete(d.receiver_id);
      else this.perReceiver.set(d.receiver_id, n);
    });
    this.inFlight.set(d.id, run);
  }

  private async send(d: ClaimedDelivery): Promise<void> {
    const { log } = this.options;
    const outcome = await sendDelivery(d, { ...this.options, clock: this.clock, signal: this.stop.signal });
    let state: FinalState;
    try {
      state = await finishAttempt(this.db, d, outcome, {
        now: this.clock(),
        worker: this.worker,
        schedule: this.options.schedule,
        jitter: this.options.jitter,
        random: this.options.random,
      });
    } catch (e) {
      log?.("error", "webhook attempt could not be recorded; the lease will expire and it is sent again", {
        delivery: d.uuid,
        error: (e as Error).message,
      });
      return;
    }
    if (state === "delivered") this.summary.delivered++;
    else if (state === "retry") this.summary.retrying++;
    else if (state === "failed") this.summary.failed++;
    else this.summary.released++;
    if (state !== "delivered") {
      log?.(
        state === "failed" ? "error" : "warn",
        `webhook delivery ${state === "retry" ? "will be retried" : state}`,
        {
          delivery: d.uuid,
          url: d.url,
          attempt: d.attempt,
          status: outcome.status,
          error: outcome.error,
        },
      );
    }
  }

  async waitAny(): Promise<void> {
    if (this.inFlight.size > 0) await Promise.race(this.inFlight.values());
  }

  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight.values()]);
  }
}

/**
 * Sends every delivery that is due now, at most once each (failures are scheduled for later, not waited
 * for), and returns what happened. For operators without a server: `unirank webhooks deliver`.
 */
export async function runDeliveryPass(db: DB, options: DeliveryOptions = {}): Promise<PassSummary> {
  const d = new Dispatcher(db, options);
  for (;;) {
    const ended = d.finished;
    const started = await d.fill();
    if (started > 0 && d.free > 0) continue;
    if (d.inFlight.size === 0) {
      // An attempt that ended during the claim freed a receiver the claim had left out as busy: claim again.
      if (d.finished !== ended) continue;
      break;
    }
    await d.waitAny();
  }
  return d.summary;
}

export interface DeliveryWorker {
  readonly id: string;
  /** Stops claiming, aborts attempts in flight (released, due again at once) and waits for them. */
  stop(): Promise<void>;
  summary(): PassSummary;
}

/** Delivers in the background until stopped: polls for due deliveries and keeps up to `concurrency` in flight. */
export function startDeliveryWorker(db: DB, options: DeliveryOptions = {}): DeliveryWorker {
  const d = new Dispatcher(db, options);
  const pollMs = options.pollMs ?? 1000;
  let wake: (() => void) | null = null;
  let lastError = "";
  /** Waits for the poll interval, a delivery finishing or stop(), whichever comes first. */
  const idle = async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waits = [
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, pollMs);
        wake = resolve;
      }),
    ];
    if (d.inFlight.size > 0) waits.push(d.waitAny());
    await Promise.race(waits);
    clearTimeout(timer);
    wake = null;
  };
  const loop = (async () => {
    while (!d.stop.signal.aborted) {
      let started = 0;
      try {
        started = await d.fill();
        lastError = "";
      } catch (e) {
        const message = (e as Error).message;
        if (message !== lastError)
          options.log?.("warn", "webhook worker cannot claim deliveries", { error: message });
        lastError = message;
      }
      if (d.stop.signal.aborted) break;
      if (started > 0 && d.free > 0) continue;
      await idle();
    }
  })();
  return {
    id: d.worker,
    summary: () => ({ ...d.summary }),
    async stop() {
      d.stop.abort();
      (wake as (() => void) | null)?.();
      await loop;
      await d.drain();
    },
  };
}
