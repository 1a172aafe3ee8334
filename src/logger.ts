import { mkdirSync } from "node:fs";
import { join } from "node:path";
import pino from "pino";
import type { LogLevel } from "./config.ts";

export type { LogLevel };

/** A log call: one JSON line `{"level","time","message",…fields}`. */
export type LogFunction = (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;

export interface Logger extends LogFunction {
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

/**
 * JSON lines (pino) to stderr and, when the directory can be made, to `<logDir>/unirank.log`. Writes are
 * buffered and asynchronous; `flush()` writes them out. The message is the third key, before the fields.
 */
export function createLogger(logDir?: string, options: LoggerOptions = {}): Logger {
  const level = options.level ?? "info";
  const stderr = pino.destination({ dest: 2, sync: false });
  const streams: { level: LogLevel; stream: Destination }[] = [
    { level: options.quiet ? "error" : level, stream: stderr },
  ];
  let file: Destination | undefined;
  if (logDir) {
    try {
      mkdirSync(logDir, { recursive: true });
      file = pino.destination({ dest: join(logDir, "unirank.log"), sync: false });
      // An unwritable file is reported by the health check, never thrown at a request.
      file.on("error", () => {});
      streams.push({ level, stream: file });
    } catch {
      file = undefined;
    }
  }
  const destinations = streams.map((s) => s.stream);
  const isOpen = (d: Destination) => (d as unknown as { fd: number }).fd >= 0;
  const ready = Promise.all(
    destinations.map((d) => (isOpen(d) ? undefined : new Promise((r) => d.once("ready", r)))),
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
    logger[lvl](fields ? { message, ...fields } : { message });
  };
  return Object.assign(log, {
    async flush() {
      await ready;
      await Promise.all(destinations.map((d) => new Promise<void>((resolve) => d.flush(() => resolve()))));
    },
    reopen() {
      if (file && isOpen(file)) file.reopen();
    },
  });
}
