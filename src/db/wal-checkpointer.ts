import { unwritableFile } from "./storage-watch.ts";

/**
 * Checkpoints a SQLite file's WAL from a thread of its own. A checkpoint syncs the WAL and the database file to
 * disk; run by the connection that writes (SQLite's automatic checkpoint, after a commit), those syncs stop the
 * event loop and every request with it. SQLite's WAL documentation names the other way: automatic checkpoints off
 * for the writer, `wal_checkpoint` run from another thread. Here that thread is a Worker with a connection of its
 * own. Each turn it runs a PASSIVE checkpoint (copies what it can while writers go on), then, if the WAL held
 * frames, a RESTART one (copies the rest and has the next write start the WAL from its beginning, so it does not
 * grow). Measured in docs/performance.md (*Checkpoints off the event loop*).
 */

/** How often the thread checkpoints, ms. */
export const CHECKPOINT_EVERY_MS = 500;

/**
 * The writer's own automatic checkpoint, in pages, kept as a fallback: were the thread to stop, the writer would
 * checkpoint once the WAL passed this many pages (40 MB at 4 KiB), as SQLite does at 1,000 by default. The thread
 * keeps the WAL far below it.
 */
export const WRITER_CHECKPOINT_FALLBACK_PAGES = 10_000;

/** How long `stop()` waits for the thread to close its connection before ending it. */
const STOP_WAIT_MS = 2000;

/** How long the RESTART checkpoint waits for readers to move on, ms (new writes wait meanwhile). */
const RESTART_WAIT_MS = 50;

/**
 * The thread's source. A string, not a module of ours: a Worker runs a module from a URL, and inside a compiled
 * executable the sources are bundled, so a blob of this text is what both run the same. It checkpoints when asked;
 * when to ask (the period, a pause, the files' state) is decided on the opening side.
 */
const WORKER_SOURCE = `
const { Database } = require("bun:sqlite");
let db;
// Each statement run and finalized at once: none is left holding the file between turns.
const checkpoint = (mode) => {
  const statement = db.prepare("pragma wal_checkpoint(" + mode + ")");
  try {
    return statement.get();
  } finally {
    statement.finalize();
  }
};
onmessage = (event) => {
  const message = event.data;
  if (message === "checkpoint") {
    try {
      if (checkpoint("passive").log > 0) checkpoint("restart");
    } catch {}
    return postMessage("checkpointed");
  }
  if (message === "stop") {
    try { db?.close(); } catch {}
    return postMessage("stopped");
  }
  try {
    // Never created here: a file deleted under the server stays deleted, for the storage check to see.
    db = new Database(message.path, { readwrite: true, create: false });
    db.exec("pragma busy_timeout = " + message.restartWaitMs);
    postMessage("started");
  } catch {
    postMessage("stopped");
  }
};
`;

export interface WalCheckpointer {
  /** Resolves once the thread has its connection open (or has given up: the writer's fallback then checkpoints). */
  readonly started: Promise<void>;
  /** Stops (true) or resumes (false) the checkpoints, as the connection's writes are stopped or resumed. */
  pause(paused: boolean): void;
  /** Closes the thread's connection and ends the thread. */
  stop(): Promise<void>;
}

/**
 * Starts checkpointing `path` from a thread. The connection that writes must have its automatic checkpoint at
 * `WRITER_CHECKPOINT_FALLBACK_PAGES` (`openSqlite` sets it). Returns null where the runtime has no Worker.
 *
 * Every `everyMs` the thread is asked for a checkpoint, unless one is still running, the checkpoints are paused, or
 * the file, its WAL or its WAL index may not be written (`unwritableFile`, the storage check's own test): a
 * checkpoint writes the WAL index, which is mapped, and a write to a mapped page of a file that may no longer be
 * written (`chattr +i`) ends the process with SIGBUS.
 */
export function startWalCheckpointer(path: string, everyMs = CHECKPOINT_EVERY_MS): WalCheckpointer | null {
  if (typeof Worker === "undefined") return null;
  const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "text/javascript" }));
  const worker = new Worker(url);
  (worker as { unref?: () => void }).unref?.();
  const ended = new Promise<void>((resolve) =>
    worker.addEventListener("close", () => resolve(), { once: true }),
  );
  const started = new Promise<void>((resolve) => {
    worker.addEventListener("message", () => resolve(), { once: true });
    worker.addEventListener("error", () => resolve(), { once: true });
    void ended.then(resolve);
  });
  let paused = false;
  let asked = false;
  let stopping: Promise<void> | undefined;
  const ticks = setInterval(() => {
    if (paused || asked || unwritableFile(path) !== null) return;
    asked = true;
    worker.postMessage("checkpoint");
  }, everyMs);
  (ticks as { unref?: () => void }).unref?.();
  worker.addEventListener("message", (e) => {
    if (e.data === "checkpointed") asked = false;
    // A thread without its connection (its file gone) is asked for nothing more.
    if (e.data === "stopped") clearInterval(ticks);
  });
  void ended.then(() => clearInterval(ticks));
  worker.postMessage({ path, restartWaitMs: RESTART_WAIT_MS });
  return {
    started,
    pause(value) {
      paused = value;
    },
    stop() {
      stopping ??= (async () => {
        clearInterval(ticks);
        const stopped = new Promise<void>((resolve) => {
          worker.addEventListener("message", (e) => e.data === "stopped" && resolve());
          void ended.then(resolve);
        });
        void started.then(() => worker.postMessage("stop"));
        // The thread answers within a checkpoint; one that does not is ended anyway.
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, STOP_WAIT_MS);
        });
        await Promise.race([stopped, timeout]);
        clearTimeout(timer);
        worker.terminate();
        URL.revokeObjectURL(url);
      })();
      return stopping;
    },
  };
}
