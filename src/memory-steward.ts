/**
 * Gives garbage back to the system under load. JavaScriptCore lets its heap grow well ahead of the garbage a busy
 * server makes and returns freed pages lazily, so the resident size stays far above what is live. Two parts:
 * - the pacer asks the runtime for a collection every 20 ms of work (`garbagePacer`), so the garbage between
 *   collections stays small;
 * - once a second the steward compares the resident size with the one measured just after its last full
 *   collection, and when it has grown by more than `headroomMb` runs one. A heap that really grew (new data)
 *   raises that floor after one collection, so it does not collect every second for nothing.
 * Pauses and effects are measured in docs/performance.md.
 */

/** How the steward reads the resident size and collects; the runtime's own by default. */
export interface StewardRuntime {
  rss(): number;
  collect(): void;
  collectSoon(): void;
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
  collectSoon: collectGarbageSoon,
};

/**
 * How often work asks the runtime for a collection (`garbagePacer`). Left to itself, the runtime lets the heap grow
 * by about what it held after its last collection before the next: a server holding 100 MB of tables swung
 * 100–150 MB above them under load. Asked every 20 ms, it stayed within 30–55 MB of them, at no measured cost a
 * request; asked every 10 ms, requests cost more (docs/performance.md).
 */
export const GARBAGE_PACE_MS = 20;

/**
 * The pacer: the function it returns, called as work is done (once a request), asks for a collection
 * (`collectSoon`, which does not stop the work for a full one) when `everyMs` have passed since it last did. A
 * server calls it from its request path, so an idle one is never woken for it.
 */
export function garbagePacer(
  everyMs = GARBAGE_PACE_MS,
  collectSoon: () => void = collectGarbageSoon,
  now: () => number = () => performance.now(),
): () => void {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const t = now();
    if (t - last < everyMs) return;
    last = t;
    collectSoon();
  };
}

/** Whether a headroom turns the steward on, and with it the pacer: 0 (or anything not above it) is off. */
const stewarding = (headroomMb: number): boolean => headroomMb > 0;

/** The pacer a server calls once a request (`garbagePacer`), or one that does nothing where `headroomMb` is off. */
export function requestPacer(headroomMb: number, collectSoon: () => void = collectGarbageSoon): () => void {
  return stewarding(headroomMb) ? garbagePacer(GARBAGE_PACE_MS, collectSoon) : () => {};
}

export interface StewardOptions {
  /** How often the resident size is looked at; 1000 ms by default. */
  everyMs?: number;
  /**
   * A collection asked for every `GARBAGE_PACE_MS` from a timer as well: for a command at work from start to end (an
   * import). A server calls its pacer from the request path instead.
   */
  paced?: boolean;
  runtime?: StewardRuntime;
}

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

/** Checks every `everyMs` (and paces, when asked); returns the function that stops it. `headroomMb` 0 turns it off. */
export function startMemorySteward(headroomMb: number, options: StewardOptions = {}): () => void {
  if (!stewarding(headroomMb)) return () => {};
  const runtime = options.runtime ?? bunRuntime;
  const steward = memorySteward(headroomMb, runtime);
  const timers = [setInterval(() => steward.check(), options.everyMs ?? 1000)];
  // The timer keeps the period itself: the pacer's check would skip a tick that fires a little early.
  if (options.paced) timers.push(setInterval(() => runtime.collectSoon(), GARBAGE_PACE_MS));
  for (const timer of timers) (timer as { unref?: () => void }).unref?.();
  return () => {
    for (const timer of timers) clearInterval(timer);
  };
}
