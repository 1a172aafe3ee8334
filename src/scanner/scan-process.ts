import { type Availability, fitEvidence, type ScanTarget } from "../../lib/scanner/index.ts";
import { EVIDENCE_MAX_CHARS } from "../../lib/write/validate-record.ts";
import type { SlotHolder } from "./browser/slots.ts";
import { measurementParts } from "./measurement-parts.ts";
import type { ScanJobSettings } from "./scan-runner.ts";
import { inProcessRunner } from "./scan-university.ts";

/**
 * A scan process: started by `ScanProcesses` (src/scanner/scan-processes.ts), it scans one university at a time
 * for the process that reads and stores the outcomes, so that fetching, parsing and scoring a site never run on
 * that process's thread, and a site that makes a scan grow past its memory bound takes down this process only.
 * It speaks JSON over the IPC channel and ends when the channel closes.
 */

/** From the parent. */
export type ToScanProcess =
  | { type: "init"; settings: ScanJobSettings }
  | {
      type: "scan";
      id: number;
      target: ScanTarget;
      startedAt: string;
      availability: Availability | null;
    }
  | { type: "abort"; id: number; reason: string }
  | { type: "slot-granted"; id: number };

/** To the parent. */
export type FromScanProcess =
  | { type: "ready" }
  | { type: "outcome"; id: number; outcome: unknown }
  | { type: "slot-acquire"; id: number }
  | { type: "slot-cancel"; id: number }
  | { type: "slot-release" };

/** The environment variable that makes the `unirank` program run as a scan process. */
export const SCAN_PROCESS_ENV = "UNIRANK_SCAN_PROCESS";

const send = (message: FromScanProcess) => process.send?.(message);

/** The browser's places, asked of the parent: one Chromium at a time across every scan process. */
function parentSlots(): SlotHolder & { granted(id: number): void } {
  let next = 0;
  const waiting = new Map<number, () => void>();
  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.resolve(false);
      const id = ++next;
      return new Promise<boolean>((resolve) => {
        const onAbort = () => {
          waiting.delete(id);
          send({ type: "slot-cancel", id });
          resolve(false);
        };
        waiting.set(id, () => {
          signal?.removeEventListener("abort", onAbort);
          resolve(true);
        });
        signal?.addEventListener("abort", onAbort, { once: true });
        send({ type: "slot-acquire", id });
      });
    },
    release: () => send({ type: "slot-release" }),
    granted(id) {
      const grant = waiting.get(id);
      waiting.delete(id);
      // Granted after the wait was given up: handed back at once.
      if (grant) grant();
      else send({ type: "slot-release" });
    },
  };
}

/** Runs this process as a scan process until its parent goes away. */
export function runScanProcess(): void {
  delete process.env[SCAN_PROCESS_ENV];
  const slots = parentSlots();
  const controllers = new Map<number, AbortController>();
  let runner: ReturnType<typeof inProcessRunner> | null = null;
  let close: () => Promise<void> = async () => {};
  process.on("message", async (message: ToScanProcess) => {
    if (message.type === "init") {
      const { chromium, browserConcurrency, sources, openalexUrl, wikidataUrl, greenwebUrl, ...settings } =
        message.settings;
      const flags = { chromium, browserConcurrency, sources, openalexUrl, wikidataUrl, greenwebUrl };
      const parts = measurementParts(flags, slots);
      close = parts.close;
      runner = inProcessRunner({ ...settings, parts: parts.parts });
      send({ type: "ready" });
    } else if (message.type === "scan" && runner) {
      const controller = new AbortController();
      controllers.set(message.id, controller);
      try {
        const outcome = await runner(
          message.target,
          { startedAt: new Date(message.startedAt), availability: message.availability },
          controller.signal,
        );
        // Fitted here too, so what crosses to the parent is no larger than what it stores.
        const evidence = outcome.evidence && fitEvidence(outcome.evidence, EVIDENCE_MAX_CHARS);
        send({ type: "outcome", id: message.id, outcome: { ...outcome, evidence } });
      } finally {
        controllers.delete(message.id);
      }
    } else if (message.type === "abort") controllers.get(message.id)?.abort(message.reason);
    else if (message.type === "slot-granted") slots.granted(message.id);
  });
  process.on("disconnect", () => {
    for (const c of controllers.values()) c.abort(new Error("the scanning process went away"));
    void close().finally(() => process.exit(0));
  });
}

if (import.meta.main) runScanProcess();
