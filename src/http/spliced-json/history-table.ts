import { generationMemo } from "../../../lib/db/generation-memo.ts";
import type { DB } from "../../../lib/index.ts";
import { type PatchRun, patchById, patchedLength } from "../../../lib/queries/patch-runs.ts";
import {
  HISTORY_SCORES,
  type HistoryRow,
  historiesAfter,
  historiesOf,
} from "../../../lib/queries/scan-history.ts";
import { completedScanCount } from "../../../lib/queries/scan-totals.ts";
import { putTenthsCodes } from "../../../lib/scores/tenths.ts";
import { pacedBatches } from "./build-batches.ts";
import { isoSeconds } from "./iso-seconds.ts";
import { room } from "./text-column.ts";

/**
 * Every university's history (`scanHistory`: its completed scans, oldest first, with the overall and composite
 * scores) kept per data generation: the scan ids, the completion times as seconds and the scores as codes of
 * tenths, about 18 bytes a scan. After a write of scans, only the universities it changed are read again.
 */
export interface HistoryTable {
  /** Ids of the universities with a completed scan, ascending; a university's slot is its index here. */
  ids: Int32Array;
  /** Where each slot's entries start, and (at `ids.length`) where the last one's end. */
  starts: Int32Array;
  /** 1 where every entry's time and scores are said exactly by the codes; else 0 (the core answers). */
  exact: Uint8Array;
  /** Per entry: the scan id. */
  scanId: Int32Array;
  /** Per entry: `completed_at` as seconds (`isoSeconds`). */
  seconds: Uint32Array;
  /** Per entry, `HISTORY_SCORES.length` codes of tenths in that order. */
  tenths: Uint16Array;
}

/** Scores an entry keeps. */
export const HISTORY_STRIDE = HISTORY_SCORES.length;

class HistoryTableBuilder {
  #ids = new Int32Array(1024);
  #starts = new Int32Array(1025);
  #exact = new Uint8Array(1024);
  #scanId = new Int32Array(4096);
  #seconds = new Uint32Array(4096);
  #tenths = new Uint16Array(4096 * HISTORY_STRIDE);
  #slots = 0;
  #entries = 0;

  /** Entries added so far. */
  get entries(): number {
    return this.#entries;
  }

  /** Adds rows in the order of `historiesAfter`, each university's after the last one's. */
  add(rows: readonly HistoryRow[]): void {
    for (const row of rows) {
      const universityId = Number(row.university_id);
      if (this.#slots === 0 || this.#ids[this.#slots - 1] !== universityId) {
        this.#ids = room(this.#ids, this.#slots + 1);
        this.#exact = room(this.#exact, this.#slots + 1);
        this.#starts = room(this.#starts, this.#slots + 2);
        this.#ids[this.#slots] = universityId;
        this.#exact[this.#slots] = 1;
        this.#starts[this.#slots] = this.#entries;
        this.#slots++;
      }
      const entry = this.#entries++;
      this.#scanId = room(this.#scanId, entry + 1);
      this.#seconds = room(this.#seconds, entry + 1);
      this.#tenths = room(this.#tenths, (entry + 1) * HISTORY_STRIDE);
      const scanId = Number(row.id);
      const seconds = isoSeconds(String(row.completed_at));
      this.#scanId[entry] = scanId;
      this.#seconds[entry] = Math.max(seconds, 0);
      const exact = putTenthsCodes(row, HISTORY_SCORES, this.#tenths, entry * HISTORY_STRIDE);
      if (!exact || seconds < 0 || !Number.isSafeInteger(scanId) || scanId > 0x7fff_ffff) {
        this.#exact[this.#slots - 1] = 0;
      }
    }
  }

  build(): HistoryTable {
    const starts = this.#starts.slice(0, this.#slots + 1);
    starts[this.#slots] = this.#entries;
    return {
      ids: this.#ids.slice(0, this.#slots),
      starts,
      exact: this.#exact.slice(0, this.#slots),
      scanId: this.#scanId.slice(0, this.#entries),
      seconds: this.#seconds.slice(0, this.#entries),
      tenths: this.#tenths.slice(0, this.#entries * HISTORY_STRIDE),
    };
  }
}

/** Scans read per statement while building. */
const RUN = 4096;

async function* historyBatches(db: DB): AsyncGenerator<HistoryRow[]> {
  for (let after: number | null = 0; after !== null; ) {
    const { rows, next }: { rows: HistoryRow[]; next: number | null } = await historiesAfter(db, after, RUN);
    yield rows;
    after = next;
  }
}

/**
 * The histories kept in memory: a table, or `NOT_KEPT` when the completed scans pass the handle's bound
 * (`keepHistories`), so that what a server holds grows with its universities and not with every scan it makes.
 */
export type KeptHistories = HistoryTable | typeof NOT_KEPT;
export const NOT_KEPT = "not kept";

/** Completed scans whose histories are kept in memory unless `keepHistories` says otherwise: about 36 MB. */
export const HISTORY_SCANS_KEPT = 2_000_000;
const bounds = new WeakMap<DB, number>();
const boundOf = (db: DB): number => bounds.get(db) ?? HISTORY_SCANS_KEPT;

/** The most completed scans whose histories `db`'s server keeps in memory; 0 keeps none. */
export function keepHistories(db: DB, scans: number): void {
  if (!Number.isSafeInteger(scans) || scans < 0) {
    throw new Error(`historyScans must be a whole number of scans, 0 or more, got ${String(scans)}`);
  }
  bounds.set(db, scans);
}

async function buildHistoryTable(db: DB): Promise<KeptHistories> {
  const most = boundOf(db);
  // Past the bound by the count, nothing is read; by the rows (a write since the count), the reading stops.
  if (most === 0 || (await completedScanCount(db)) > most) return NOT_KEPT;
  const builder = new HistoryTableBuilder();
  for await (const rows of pacedBatches(historyBatches(db))) {
    builder.add(rows);
    if (builder.entries > most) return NOT_KEPT;
  }
  return builder.build();
}

/** Entries of slots `from`..`to` of `table`. */
const entriesOf = (table: HistoryTable, from: number, to: number) => ({
  from: table.starts[from] as number,
  to: table.starts[to] as number,
});

/** `old` with the `changed` universities' histories read again: the slots that stay copied run by run. */
async function patchHistoryTable(
  db: DB,
  _key: string,
  old: KeptHistories,
  changed: ReadonlySet<number>,
): Promise<KeptHistories> {
  // Scans are never deleted: histories past the bound stay past it.
  if (old === NOT_KEPT) return NOT_KEPT;
  const builder = new HistoryTableBuilder();
  builder.add(
    await historiesOf(
      db,
      [...changed].sort((a, b) => a - b),
    ),
  );
  const fresh = builder.build();
  const { runs } = patchById(old.ids, changed, [...fresh.ids]);
  const merged = mergedTable(old, fresh, runs, patchedLength(runs));
  return merged.scanId.length > boundOf(db) ? NOT_KEPT : merged;
}

/** The slots of `old` and `fresh` put where `runs` say, with their entries. */
function mergedTable(
  old: HistoryTable,
  fresh: HistoryTable,
  runs: readonly PatchRun[],
  n: number,
): HistoryTable {
  const pieces = runs.map((run) =>
    "added" in run
      ? { table: fresh, slots: { from: run.added, to: run.added + 1 }, out: run.out }
      : { table: old, slots: { from: run.from, to: run.to }, out: run.out },
  );
  let entries = 0;
  for (const { table, slots } of pieces) {
    const { from, to } = entriesOf(table, slots.from, slots.to);
    entries += to - from;
  }
  const out: HistoryTable = {
    ids: new Int32Array(n),
    starts: new Int32Array(n + 1),
    exact: new Uint8Array(n),
    scanId: new Int32Array(entries),
    seconds: new Uint32Array(entries),
    tenths: new Uint16Array(entries * HISTORY_STRIDE),
  };
  let at = 0;
  for (const { table, slots, out: slot } of pieces) {
    const { from, to } = entriesOf(table, slots.from, slots.to);
    out.ids.set(table.ids.subarray(slots.from, slots.to), slot);
    out.exact.set(table.exact.subarray(slots.from, slots.to), slot);
    for (let s = slots.from; s < slots.to; s++)
      out.starts[slot + s - slots.from] = (table.starts[s] as number) - from + at;
    out.scanId.set(table.scanId.subarray(from, to), at);
    out.seconds.set(table.seconds.subarray(from, to), at);
    out.tenths.set(table.tenths.subarray(from * HISTORY_STRIDE, to * HISTORY_STRIDE), at * HISTORY_STRIDE);
    at += to - from;
  }
  out.starts[n] = at;
  return out;
}

const historyMemo = generationMemo((db) => buildHistoryTable(db), { patch: patchHistoryTable });

/** Every university's history, built at most once per data generation and patched after writes of scans. */
export const historyTableOf = (db: DB): Promise<KeptHistories> => historyMemo(db, "");

/**
 * `historyTableOf` when this generation's is built and kept; else null (the database answers): its build or patch
 * started or under way, or the histories past the bound.
 */
export async function builtHistoryTableOf(db: DB): Promise<HistoryTable | null> {
  const kept = await historyMemo.ifBuilt(db, "");
  return kept === NOT_KEPT ? null : kept;
}
