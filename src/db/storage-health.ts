import { isoTimestamp } from "../../lib/index.ts";
import type { FileProblem } from "./storage-watch.ts";

/** A kind of write that fails now, for `/health`: what, the cause (in words, no driver text), since when. */
export interface FailingWrite {
  what: string;
  cause: string;
  since: string;
}

type Log = (level: "info" | "warn" | "error", message: string, fields?: Record<string, unknown>) => void;

/**
 * What the server knows of its storage beyond a read: which writes fail now (the rate limiter, the audit log,
 * replay records, housekeeping; a full disk, an unwritable file) and what is wrong with the files it opened.
 * Writers report each outcome; the log hears of changes only (a failure, a recovery), not of every attempt.
 */
export class StorageHealth {
  readonly #writes = new Map<string, { error: string; cause: string; since: Date }>();
  readonly #files = new Map<string, { problem: FileProblem; since: Date }>();

  constructor(
    private readonly log: Log = () => {},
    /** Names a storage fault in words (`storage full`), or null; the database adapter's own classification. */
    private readonly classify: (error: unknown) => string | null = () => null,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  writeFailed(what: string, error: unknown): void {
    const text = error instanceof Error ? error.message : String(error);
    const known = this.#writes.get(what);
    if (known?.error === text) return;
    const cause = this.classify(error) ?? "write failed";
    this.#writes.set(what, { error: text, cause, since: known?.since ?? this.clock() });
    this.log("error", "storage write failing", { what, error: text });
  }

  writeSucceeded(what: string): void {
    if (!this.#writes.delete(what)) return;
    this.log("info", "storage write recovered", { what });
  }

  /** A file's problem (null: none any more), under a name saying which database it is (`data`, `access state`). */
  fileProblem(role: string, problem: FileProblem | null): void {
    if (problem === null) {
      if (this.#files.delete(role)) this.log("info", "storage file usable again", { role });
      return;
    }
    this.#files.set(role, { problem, since: this.#files.get(role)?.since ?? this.clock() });
    this.log("error", "storage file problem", { role, kind: problem.kind, message: problem.message });
  }

  /** The data file deleted or replaced: the data served is no longer that of the file at its path. */
  dataFault(): string | null {
    const data = this.#files.get("data")?.problem;
    return data && data.kind !== "unwritable" ? `database file ${data.kind} while serving` : null;
  }

  failingWrites(): FailingWrite[] {
    const out: FailingWrite[] = [];
    for (const [role, { problem, since }] of this.#files) {
      if (role === "data" && problem.kind !== "unwritable") continue;
      const cause = problem.kind === "unwritable" ? "not writable" : problem.kind;
      out.push({ what: `${role} file`, cause, since: isoTimestamp(since) });
    }
    for (const [what, w] of this.#writes) out.push({ what, cause: w.cause, since: isoTimestamp(w.since) });
    return out;
  }
}
