import { prepared } from "../db/prepared.ts";
import type { DB } from "../schema/database.ts";
import { type Clock, isoTimestamp, systemClock } from "../time/format.ts";
import { mentionsKeyPrefix, redactKeyMaterial } from "./api-key-format.ts";
import { type AccessDB, type AuditLogTable, accessDb } from "./tables.ts";

/** The fields every audit row records (the table's own documentation says what each holds). */
type AuditFields = Omit<AuditLogTable, "id" | "at">;

/** One audited request; `at` is when it arrived. `path` should pass through `redactPath` (the writer does it again). */
export type AuditEntry = AuditFields & { at: Date };

/** An audit row as read back. */
export type AuditRecord = AuditFields & { id: number; time: string };

const MAX_PATH = 2048;

/** Percent-decoded text (`+` as space in a query), decoded again while it still changes (a key sent encoded twice). */
function decoded(text: string, plusIsSpace: boolean): string {
  let out = plusIsSpace ? text.replace(/\+/g, " ") : text;
  for (let i = 0; i < 4 && out.includes("%"); i++) {
    try {
      const next = decodeURIComponent(out);
      if (next === out) break;
      out = next;
    } catch {
      break;
    }
  }
  return out;
}

/** One path segment or query name/value with any key in it replaced, looked for after decoding. */
function redactPart(raw: string, plusIsSpace: boolean): string {
  if (!raw.includes("%") && !(plusIsSpace && raw.includes("+"))) return redactKeyMaterial(raw);
  const text = decoded(raw, plusIsSpace);
  const redacted = redactKeyMaterial(text);
  if (redacted === text) return raw;
  return encodeURIComponent(redacted).replace(/%2F/gi, "/");
}

/**
 * Path with query, with the value of every `api_key` parameter (however its name is percent-encoded) replaced by
 * `REDACTED`, and anything shaped like a key anywhere else replaced too, also where it is percent-encoded
 * (`?x=%75rk_…`): parts are looked at after decoding, as the server reads them. Truncated to 2048 characters.
 */
export function redactPath(pathWithQuery: string): string {
  const q = pathWithQuery.indexOf("?");
  // Most paths carry no key at all: nothing to parse.
  if (
    pathWithQuery.length <= MAX_PATH &&
    !mentionsKeyPrefix(pathWithQuery) &&
    !pathWithQuery.includes("%") &&
    (q < 0 || !/api_key|\+/i.test(pathWithQuery))
  ) {
    return pathWithQuery;
  }
  const path = q < 0 ? pathWithQuery : pathWithQuery.slice(0, q);
  let out = redactPart(path, false);
  if (q >= 0) {
    const parts = pathWithQuery
      .slice(q + 1)
      .split("&")
      .map((part) => {
        const eq = part.indexOf("=");
        const rawName = eq >= 0 ? part.slice(0, eq) : part;
        if (decoded(rawName, true).trim().toLowerCase() === "api_key") return `${rawName}=REDACTED`;
        const name = redactPart(rawName, true);
        return eq >= 0 ? `${name}=${redactPart(part.slice(eq + 1), true)}` : name;
      });
    out = `${out}?${parts.join("&")}`;
  }
  return out.length > MAX_PATH ? `${out.slice(0, MAX_PATH)}…` : out;
}

export interface AuditLogOptions {
  clock?: Clock;
  /** Rows older than this many days are deleted by `prune()`; 0 keeps everything. Default 90. */
  retentionDays?: number;
  /** Buffered entries are written at least this often (ms). Default 1000. */
  flushIntervalMs?: number;
  /** A flush starts as soon as this many entries wait. Default 200. */
  batchSize?: number;
  /** Most entries kept while the database cannot be written; the oldest are dropped beyond. Default 50000. */
  maxBuffered?: number;
  onError?: (error: unknown) => void;
  /** Called after a batch was written (after failures: the storage takes writes again). */
  onWritten?: () => void;
}

export const DEFAULT_AUDIT_RETENTION_DAYS = 90;

/** The buffered audit writer: `record()` is synchronous and cheap; rows reach the database in batches. */
export interface AuditLog {
  record(entry: AuditEntry): void;
  /** Writes everything buffered so far. */
  flush(): Promise<void>;
  /** Deletes rows older than the retention; returns how many. */
  prune(): Promise<number>;
  /** Flushes and stops the timer. */
  close(): Promise<void>;
  readonly retentionDays: number;
}

/** The INSERT of `n` audit rows, built and compiled once per database handle and row count. */
const insertAudit = prepared((db, arg: (i: number) => unknown, n) =>
  accessDb(db)
    .insertInto("audit_log")
    .values(
      Array.from({ length: n }, (_, row) => ({
        at: arg(row * 8) as number,
        request_id: arg(row * 8 + 1) as string,
        key_id: arg(row * 8 + 2) as number | null,
        client_ip: arg(row * 8 + 3) as string,
        method: arg(row * 8 + 4) as string,
        path: arg(row * 8 + 5) as string,
        status: arg(row * 8 + 6) as number,
        duration_ms: arg(row * 8 + 7) as number,
      })),
    ),
);

export function createAuditLog(db: DB | AccessDB, options: AuditLogOptions = {}): AuditLog {
  const adb = accessDb(db);
  const clock = options.clock ?? systemClock;
  const retentionDays = options.retentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS;
  const batchSize = options.batchSize ?? 200;
  const maxBuffered = options.maxBuffered ?? 50_000;
  const interval = options.flushIntervalMs ?? 1000;
  let buffer: AuditEntry[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();
  /** A write of full batches is queued or running: entries recorded meanwhile join it, with no write of their own. */
  let batching = false;
  let closed = false;

  /**
   * Writes the buffer batch by batch while it holds at least `least` entries (1: everything). Entries recorded
   * while a batch is written are taken by the next turn of the loop.
   */
  const write = async (least: number): Promise<void> => {
    while (buffer.length >= least && buffer.length > 0) {
      const batch = buffer.slice(0, batchSize);
      try {
        const values: unknown[] = [];
        for (const e of batch) {
          values.push(
            e.at.getTime(),
            redactKeyMaterial(e.request_id.slice(0, 128)),
            e.key_id,
            e.client_ip,
            e.method.slice(0, 16),
            redactPath(e.path),
            e.status,
            Math.round(e.duration_ms * 1000) / 1000,
          );
        }
        await insertAudit(adb as unknown as DB, values, batch.length);
        buffer = buffer.slice(batch.length);
        options.onWritten?.();
      } catch (e) {
        options.onError?.(e);
        schedule(); // kept; retried at the next interval
        return;
      }
    }
    // What is left, less than a batch, waits for the interval.
    if (buffer.length > 0) schedule();
  };
  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    writing = writing.then(() => write(1));
    return writing;
  };
  /**
   * A write of full batches, unless one is queued or running already. Under load, entries arrive while a batch is
   * written: each starting a write of its own would write them a row or two a statement, each its own commit.
   */
  const writeBatches = () => {
    batching = true;
    writing = writing
      .then(() => write(batchSize))
      .finally(() => {
        batching = false;
      });
  };
  const schedule = () => {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      void flush();
    }, interval);
    (timer as { unref?: () => void }).unref?.();
  };

  return {
    retentionDays,
    record(entry) {
      buffer.push(entry);
      if (buffer.length > maxBuffered) buffer.splice(0, buffer.length - maxBuffered);
      // The timer stays the fallback: the batches' write may be ending as this entry comes.
      if (buffer.length >= batchSize && !batching) writeBatches();
      else schedule();
    },
    flush,
    async prune() {
      return pruneAudit(adb, { now: clock(), retentionDays });
    },
    async close() {
      closed = true;
      await flush();
    },
  };
}

/** Deletes audit rows older than `retentionDays` (0 keeps everything). */
export async function pruneAudit(
  db: DB | AccessDB,
  options: { now: Date; retentionDays: number },
): Promise<number> {
  if (!(options.retentionDays > 0)) return 0;
  const cutoff = options.now.getTime() - options.retentionDays * 86_400_000;
  const result = await accessDb(db).deleteFrom("audit_log").where("at", "<", cutoff).executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}

export interface ReadAuditOptions {
  /** Only rows at or after this time. */
  since?: Date;
  /** Only rows with an id above this (paging). */
  afterId?: number;
  /** Default 1000. */
  limit?: number;
}

/** Audit rows, oldest first. Page with `afterId` = the last id returned. */
export async function readAudit(db: DB | AccessDB, options: ReadAuditOptions = {}): Promise<AuditRecord[]> {
  let q = accessDb(db).selectFrom("audit_log").selectAll();
  if (options.since) q = q.where("at", ">=", options.since.getTime());
  if (options.afterId !== undefined) q = q.where("id", ">", options.afterId);
  const rows = await q
    .orderBy("id")
    .limit(options.limit ?? 1000)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    time: isoTimestamp(new Date(Number(r.at))),
    request_id: r.request_id,
    key_id: r.key_id === null ? null : Number(r.key_id),
    client_ip: r.client_ip,
    method: r.method,
    path: r.path,
    status: Number(r.status),
    duration_ms: Number(r.duration_ms),
  }));
}
