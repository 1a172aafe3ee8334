import type { Database as SqliteDatabase, Statement } from "bun:sqlite";

/**
 * A read transaction the SQLite connection opens itself and shares between the plain reads of the next `windowMs`
 * milliseconds (docs/performance.md, "One read transaction for the reads of a window"). Every statement outside a
 * transaction otherwise opens and closes its own, paying WAL locking even when every page it reads is cached.
 * Any other statement (a write, `begin`, a pragma) ends the held one first, so this connection's own
 * writes are seen at once; a write by another connection is seen at most `windowMs` later, as the data window
 * (`--data-window`) already allows. A timer ends an unused one, so it never holds back a checkpoint. 0 turns it off.
 */
export class HeldReadSnapshot {
  #since = -1;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #begin: Statement;
  readonly #commit: Statement;
  readonly #onTimer = () => {
    this.#timer = undefined;
    this.end();
  };

  constructor(
    private readonly db: SqliteDatabase,
    private readonly windowMs: number,
  ) {
    // From bun's statement cache, as the dialect's: a statement kept from `prepare()` made the server miss a database
    // file replaced under it (test/process/health.test.ts), as the dialect notes for its own.
    this.#begin = db.query("begin deferred");
    this.#commit = db.query("commit");
  }

  /** Before a statement runs: keeps or opens the held snapshot for a plain read (`isPlainRead`), ends it otherwise. */
  before(plainRead: boolean): void {
    if (this.windowMs <= 0) return;
    if (!plainRead) {
      this.end();
      return;
    }
    const now = performance.now();
    if (this.#since >= 0) {
      if (now - this.#since < this.windowMs) return;
      this.end();
    }
    // A transaction of the caller's own (Kysely's, `inReadSnapshot`) is never joined or ended.
    if (this.db.inTransaction) return;
    this.#begin.run();
    this.#since = now;
    this.#timer = setTimeout(this.#onTimer, this.windowMs);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /** Ends the held snapshot, if any (also after a failed statement, which SQLite may have rolled back). */
  end(): void {
    if (this.#since < 0) return;
    this.#since = -1;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.db.inTransaction) return;
    try {
      this.#commit.run();
    } catch {
      if (this.db.inTransaction) this.db.run("rollback");
    }
  }
}

/** A statement that only reads and returns rows: a SELECT (or WITH … SELECT) that SQLite calls read-only. */
export function isPlainRead(stmt: Statement, sql: string): boolean {
  return stmt.readonly && stmt.columnNames.length > 0 && /^\s*(select|with)\b/i.test(sql);
}
