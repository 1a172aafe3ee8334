import { mkdirSync } from "node:fs";
import { join } from "node:path";
import pino from "pino";
import type { LogLevel } from "./config.ts";

export type { LogLevel };

/** A log call: one JSON line `{"level","time","message",…fields}`. */
export type LogFunction = (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;

export interface Logger extends LogFunction {
  /**
   * Writes one line already serialised as a JSON object (no newline) where `level` is logged: the access log's
   * fast path, its few fixed fields written by hand instead of through pino's general serialisation.
   */
  writeLine(level: LogLevel, json: string): void;
  /** Writes out what is buffered (at shutdown). */
  flush(): Promise<void>;
  /** Opens the log file again under its name (after logrotate moved it; `serve` does this on SIGHUP). */
  reopen(): void;
}

export interface LoggerOptions {
  /** Lines below this level are not written (default info). */
  level?: LogLevel;
  /** Only errors reach stderr (tests, benchmarks); the file still gets every line. */
  quiet?: boolean;
}

type Destination = ReturnType<typeof pino.destination>;

/** `writeLine`'s lines are written in batches of about this size… */
const BATCH_CHARS = 8192;
/** …or after this long. */
const FLUSH_MS = 250;

/**
 * JSON lines (pino) to stderr and, when the directory can be made, to `<logDir>/unirank.log`. Writes are
 * asynchronous (`writeLine`'s within FLUSH_MS); `flush()` writes everything out now. The message is the third key,
 * before the fields.
 */
export function createLogger(logDir?: string, options: LoggerOptions = {}): Logger {
  const level = options.level ?? "info";
  // minLength 1: written at once all the same, and `flush` waits for writes under way (with 0 it does not).
  const stderr = pino.destination({ dest: 2, sync: false, minLength: 1 });
  const streams: { level: LogLevel; stream: Destination }[] = [
    { level: options.quiet ? "error" : level, stream: stderr },
  ];
  let file: Destination | undefined;
  if (logDir) {
    try {
      mkdirSync(logDir, { recursive: true });
      file = pino.destination({ dest: join(logDir, "unirank.log"), sync: false, minLength: 1 });
      // An unwritable file is reported by the health check, never thrown at a request.
      file.on("error", () => {});
      streams.push({ level, stream: file });
    } catch {
      file = undefined;
    }
  }
  const destinations = streams.map((s) => s.stream);
  const rank = (l: LogLevel) => pino.levels.values[l] as number;
  // `writeLine`'s lines wait here, per level, and go out joined: past BATCH_CHARS, every FLUSH_MS, and before any
  // other line (so the order holds). A write per line costs sonic-boom a measure of its whole buffer and the
  // system a call each (docs/performance.md).
  const batches = new Map<LogLevel, { lines: string[]; chars: number }>();
  const writeBatches = () => {
    for (const [lvl, batch] of batches) {
      if (batch.lines.length === 0) continue;
      const text = batch.lines.join("");
      batch.lines = [];
      batch.chars = 0;
      for (const s of streams) if (rank(lvl) >= rank(s.level)) s.stream.write(text);
    }
  };
  const flusher = setInterval(writeBatches, FLUSH_MS);
  flusher.unref();
  const isOpen = (d: Destination) => (d as unknown as { fd: number }).fd >= 0;
  // Opened, or failed to open (an unwritable directory: the health check reports it).
  const settled = Promise.all(
    destinations.map((d) =>
      isOpen(d)
        ? undefined
        : new Promise((r) => {
            d.once("ready", r);
            d.once("error", r);
          }),
    ),
  );
  const logger = pino(
    {
      level,
      base: undefined,
      messageKey: "message",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.multistream(streams),
  );
  const log: LogFunction = (lvl, message, fields) => {
    writeBatches();
    logger[lvl](fields ? { message, ...fields } : { message });
  };
  return Object.assign(log, {
    writeLine(lvl: LogLevel, json: string) {
      if (rank(lvl) < rank(level)) return;
      let batch = batches.get(lvl);
      if (batch === undefined) {
        batch = { lines: [], chars: 0 };
        batches.set(lvl, batch);
      }
      batch.lines.push(json, "\n");
      batch.chars += json.length + 1;
      if (batch.chars >= BATCH_CHARS) writeBatches();
    },
    async flush() {
      writeBatches();
      await settled;
      await Promise.all(
        destinations.filter(isOpen).map((d) => new Promise<void>((resolve) => d.flush(() => resolve()))),
      );
    },
    reopen() {
      if (file && isOpen(file)) file.reopen();
    },
  });
}
