import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

export type LogLevel = "info" | "warn" | "error";
export type Logger = (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;

/** NDJSON lines to stderr and, when it can be written, `<logDir>/unirank.log`. */
export function createLogger(logDir?: string, options: { quiet?: boolean } = {}): Logger {
  let file: string | undefined;
  if (logDir) {
    try {
      mkdirSync(logDir, { recursive: true });
      file = join(logDir, "unirank.log");
    } catch {
      file = undefined;
    }
  }
  return (level, message, fields = {}) => {
    const line = `${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`;
    if (!options.quiet || level === "error") process.stderr.write(line);
    if (file) {
      try {
        appendFileSync(file, line);
      } catch {
        // the health check reports an unwritable log directory
      }
    }
  };
}
