import { existsSync, readFileSync } from "node:fs";
import { setPriority } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { failedOutcome, isoTimestamp, type ScanOutcome } from "../../lib/index.ts";
import { Slots } from "./browser/slots.ts";
import type { FromScanProcess, ToScanProcess } from "./scan-process.ts";
import { SCAN_PROCESS_ENV } from "./scan-process.ts";
import type { ScanJobSettings, ScanRunner } from "./scan-runner.ts";
import { SCANNER_DEFAULTS } from "./scanner-defaults.ts";

/** Resident memory a scan process may reach by default, in MB. */
export const SCAN_MEMORY_DEFAULT_MB = 512;
/** The scheduling priority of a scan process (`nice`), below the process it scans for. */
const SCAN_PROCESS_NICENESS = 10;
/**
 * JavaScriptCore's settings for a scan process: no optimising (DFG, and so FTL) JIT. A scan runs much code a few
 * times each, so a process compiled far more than it ran faster for it (docs/performance.md).
 */
const SCAN_PROCESS_JIT = { BUN_JSC_useDFGJIT: "0" } as const;
/** How long past its own timeout a scan process may take before it is stopped. */
const DEADLINE_GRACE_MS = 15_000;

export interface ScanProcessesOptions {
  /** Scan processes at most, one scan each at a time: the scans at once. */
  size: number;
  settings: ScanJobSettings;
  /** Resident memory a scan process may reach, in MB: past it the process is stopped and its scan fails. */
  memoryMb?: number;
  /** Browser measurements at once across every process (default `settings.browserConcurrency`, else 1). */
  browserConcurrency?: number;
  /** How often each busy process's memory is read, in ms (default 100). */
  watchMs?: number;
  /** The command that starts a scan process (default `scanProcessCommand()`). */
  command?: string[];
}

/** The command that starts a scan process: its source file under Bun, else this program again (bundled, compiled). */
export function scanProcessCommand(): string[] {
  const source = join(import.meta.dir, "scan-process.ts");
  if (existsSync(source)) return [process.execPath, source];
  // A compiled executable runs its own entry point; a bundle is run by Bun with the bundle's path.
  if (Bun.main.startsWith("/$bunfs/") || /^[A-Z]:[\\/]~BUN[\\/]/.test(Bun.main)) return [process.execPath];
  return [process.execPath, Bun.main];
}

/** Resident set size of a process in MB (Linux `/proc`), or null where it cannot be read. */
function residentMb(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

type Outcome = Awaited<ReturnType<ScanRunner>>;

interface Job {
  id: number;
  startedAt: Date;
  finish(outcome: Outcome): void;
  /** Why the parent stopped the process, when it did. */
  killedFor?: string;
}

interface Worker {
  proc: Subprocess;
  ready: Promise<boolean>;
  job: Job | null;
  gone: boolean;
  /** Browser places this process holds. */
  held: number;
  waiting: Map<number, AbortController>;
}

/**
 * Scans run in scan processes (src/scanner/scan-process.ts), one scan per process at a time, started on demand
 * and kept for the next scan. The process that owns the pool only sends targets and receives outcomes (each
 * fitted to the evidence cap before it crosses), so fetching and parsing sites never run on its thread. Each busy
 * process's resident memory is read every `watchMs`: past `memoryMb` it is killed and its scan fails, saying so;
 * likewise a process that outlives its scan's timeout. Browser places are shared across the processes.
 */
export class ScanProcesses {
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private readonly queue: ((w: Worker) => void)[] = [];
  private readonly browserSlots: Slots;
  private readonly memoryMb: number;
  private readonly deadlineMs: number;
  private nextId = 0;
  private closed = false;

  constructor(private readonly options: ScanProcessesOptions) {
    this.browserSlots = new Slots(options.browserConcurrency ?? options.settings.browserConcurrency ?? 1);
    this.memoryMb = options.memoryMb ?? SCAN_MEMORY_DEFAULT_MB;
    this.deadlineMs = (options.settings.scanTimeoutMs ?? SCANNER_DEFAULTS.scanTimeoutMs) + DEADLINE_GRACE_MS;
  }

  /** Runs one scan in a scan process; never throws (a scan that cannot run is a failed outcome with the reason). */
  readonly scan: ScanRunner = async (target, { startedAt, availability }, signal) => {
    const failed = (reason: string) =>
      failedOutcome(reason, isoTimestamp(startedAt), isoTimestamp(new Date()));
    if (this.closed) return failed("scan stopped: the scan processes are closed");
    const worker = await this.take();
    if (!worker) return failed("scan stopped: the scan processes are closed");
    if (!(await worker.ready)) {
      this.retire(worker);
      return failed("the scan process could not start");
    }
    const id = ++this.nextId;
    const outcome = await new Promise<Outcome>((resolve) => {
      const job: Job = { id, startedAt, finish: resolve };
      worker.job = job;
      const onAbort = () =>
        this.post(worker, { type: "abort", id, reason: String(signal?.reason?.message ?? signal?.reason) });
      signal?.addEventListener("abort", onAbort, { once: true });
      const watch = setInterval(() => {
        const mb = residentMb(worker.proc.pid);
        if (mb !== null && mb > this.memoryMb) {
          this.kill(worker, `the scan used more than ${this.memoryMb} MB of memory; its process was stopped`);
        }
      }, this.options.watchMs ?? 100);
      const deadline = setTimeout(
        () =>
          this.kill(worker, `the scan took longer than ${(this.deadlineMs - DEADLINE_GRACE_MS) / 1000} s`),
        this.deadlineMs,
      );
      job.finish = (o) => {
        clearInterval(watch);
        clearTimeout(deadline);
        signal?.removeEventListener("abort", onAbort);
        resolve(o);
      };
      this.post(worker, {
        type: "scan",
        id,
        target,
        startedAt: startedAt.toISOString(),
        availability: availability ?? null,
      });
      if (signal?.aborted) onAbort();
    });
    worker.job = null;
    this.release(worker);
    return outcome;
  };

  /** Stops every scan process (scans in progress end as failed) and waits for them to exit. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.queue.splice(0)) waiter(null as unknown as Worker);
    const procs = [...this.all].map((w) => w.proc);
    for (const w of this.all) this.kill(w, "scan stopped: the scan processes are closed");
    await Promise.all(procs.map((p) => p.exited));
  }

  private take(): Promise<Worker | null> {
    const worker = this.idle.pop();
    if (worker) return Promise.resolve(worker);
    if (this.all.size < Math.max(1, this.options.size)) return Promise.resolve(this.spawn());
    return new Promise((resolve) => this.queue.push(resolve));
  }

  private release(worker: Worker): void {
    // A process grown past half its bound is replaced rather than kept for the next scan.
    const mb = residentMb(worker.proc.pid);
    if (worker.gone || (mb !== null && mb > this.memoryMb / 2)) {
      this.retire(worker);
      if (this.queue.length > 0 && !this.closed) this.queue.shift()?.(this.spawn());
      return;
    }
    const next = this.queue.shift();
    if (next) next(worker);
    else this.idle.push(worker);
  }

  private spawn(): Worker {
    let markReady: (ok: boolean) => void = () => {};
    const worker: Worker = {
      proc: null as unknown as Subprocess,
      ready: new Promise<boolean>((resolve) => {
        markReady = resolve;
      }),
      job: null,
      gone: false,
      held: 0,
      waiting: new Map(),
    };
    try {
      worker.proc = Bun.spawn(this.options.command ?? scanProcessCommand(), {
        env: { ...process.env, ...SCAN_PROCESS_JIT, [SCAN_PROCESS_ENV]: "1" },
        stdin: "ignore",
        stdout: "ignore",
        stderr: "inherit",
        serialization: "json",
        ipc: (message: FromScanProcess) => this.onMessage(worker, message, markReady),
        onExit: (_proc, code, signalCode) => this.onExit(worker, code, signalCode, markReady),
      });
    } catch (e) {
      worker.gone = true;
      markReady(false);
      process.stderr.write(`unirank: a scan process could not start: ${(e as Error).message}\n`);
      return worker;
    }
    this.all.add(worker);
    try {
      // Below the serving process: when both want the CPU, answering requests comes first.
      setPriority(worker.proc.pid, SCAN_PROCESS_NICENESS);
    } catch {
      // Not permitted here: the scan runs at the same priority.
    }
    this.post(worker, { type: "init", settings: this.options.settings });
    return worker;
  }

  private post(worker: Worker, message: ToScanProcess): void {
    if (worker.gone) return;
    try {
      worker.proc.send(message);
    } catch {
      // The process is gone; its exit ends the job.
    }
  }

  private onMessage(worker: Worker, message: FromScanProcess, markReady: (ok: boolean) => void): void {
    switch (message.type) {
      case "ready":
        markReady(true);
        break;
      case "outcome":
        if (worker.job?.id === message.id) worker.job.finish(message.outcome as ScanOutcome);
        break;
      case "slot-acquire": {
        const controller = new AbortController();
        worker.waiting.set(message.id, controller);
        void this.browserSlots.acquire(controller.signal).then((granted) => {
          worker.waiting.delete(message.id);
          if (!granted) return;
          if (worker.gone) return this.browserSlots.release();
          worker.held++;
          this.post(worker, { type: "slot-granted", id: message.id });
        });
        break;
      }
      case "slot-cancel":
        worker.waiting.get(message.id)?.abort();
        break;
      case "slot-release":
        if (worker.held > 0) {
          worker.held--;
          this.browserSlots.release();
        }
        break;
    }
  }

  private onExit(
    worker: Worker,
    code: number | null,
    signalCode: number | string | null,
    markReady: (ok: boolean) => void,
  ): void {
    worker.gone = true;
    markReady(false);
    this.all.delete(worker);
    const i = this.idle.indexOf(worker);
    if (i >= 0) this.idle.splice(i, 1);
    for (const c of worker.waiting.values()) c.abort();
    for (; worker.held > 0; worker.held--) this.browserSlots.release();
    const job = worker.job;
    if (job) {
      const reason =
        job.killedFor ??
        `the scan process ended unexpectedly (${signalCode ? `signal ${signalCode}` : `exit code ${code}`})`;
      job.finish(failedOutcome(reason, isoTimestamp(job.startedAt), isoTimestamp(new Date())));
    }
  }

  private kill(worker: Worker, reason: string): void {
    if (worker.job && worker.job.killedFor === undefined) worker.job.killedFor = reason;
    if (!worker.gone) worker.proc.kill("SIGKILL");
  }

  /** Lets a process go: its channel is closed, and it closes its browser and exits. */
  private retire(worker: Worker): void {
    if (worker.gone) return;
    try {
      worker.proc.disconnect();
    } catch {
      worker.proc.kill("SIGTERM");
    }
  }
}
