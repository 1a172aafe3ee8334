/**
 * Gives garbage back to the system under load. JavaScriptCore lets its heap grow well ahead of the garbage a busy
 * server makes and returns freed pages lazily, so the resident size stays far above what is live. Once a second
 * this compares the resident size with the one measured just after its last full collection, and when it has
 * grown by more than `headroomMb` runs one (pause and effect measured in docs/performance.md). A heap that really
 * grew (new data) raises that floor after one collection, so it does not collect every second for nothing.
 */

/** How the steward reads the resident size and collects; the runtime's own by default. */
export interface StewardRuntime {
  rss(): number;
  collect(): void;
}

/** Bun's collector, where the runtime is Bun: a full collection, synchronous, when `force`. */
const bunGc = (force: boolean): void => (globalThis as { Bun?: { gc(force: boolean): void } }).Bun?.gc(force);

/** A full collection now, where the runtime offers one (Bun); nothing elsewhere. */
export const collectGarbage = (): void => bunRuntime.collect();

/**
 * A collection the runtime runs when it suits it, with no full collection forced (Bun's `Bun.gc(false)`, which also
 * has mimalloc give back its free pages); nothing elsewhere. Cheap enough to ask for between the batches of a build.
 */
export const collectGarbageSoon = (): void => bunGc(false);

const bunRuntime: StewardRuntime = {
  rss: () => process.memoryUsage.rss(),
  collect: () => bunGc(true),
};

/** One look at the resident size per `check()`: collects when it passed the floor by more than the headroom. */
export function memorySteward(
  headroomMb: number,
  runtime: StewardRuntime = bunRuntime,
): { check(): boolean } {
  const headroom = headroomMb * 1024 * 1024;
  let floor = runtime.rss();
  return {
    check() {
      const rss = runtime.rss();
      floor = Math.min(floor, rss);
      if (rss - floor <= headroom) return false;
      runtime.collect();
      // A full collection returns the freed pages at once.
      floor = runtime.rss();
      return true;
    },
  };
}

/** Checks every `everyMs`; returns the function that stops it. `headroomMb` 0 turns it off. */
export function startMemorySteward(headroomMb: number, everyMs = 1000, runtime?: StewardRuntime): () => void {
  if (!(headroomMb > 0)) return () => {};
  const steward = memorySteward(headroomMb, runtime);
  const timer = setInterval(() => steward.check(), everyMs);
  (timer as { unref?: () => void }).unref?.();
  return () => clearInterval(timer);
}
