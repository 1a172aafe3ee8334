import { snapshotPins } from "../db/snapshot-pins.ts";

/**
 * Walking a whole list page by page (cursor paging). A walk reads the list as it stood when the walk began: the
 * order of its rows is pinned in memory (`snapshotPins`) and each page is the next slice of it, so every row of
 * that list is given exactly once, whatever is written meanwhile. A row's fields are read with its page. When the
 * pinned order is gone (the walk idled past `PIN_IDLE_MS`, the process restarted, another server answers), the
 * walk goes on from its last row's sort key in the current list.
 */
export interface WalkStep {
  /** Id of the pinned order the walk reads; null for lists whose order never changes (keyset in SQL). */
  snapshot: string | null;
  /** Position in the pinned order of the next row. */
  offset: number;
  /** Sort key of the last row given, where the walk goes on without its pinned order. */
  after: readonly (string | number)[];
}

export interface WalkPage<R> {
  data: R[];
  /** Rows of the whole list the walk reads. */
  total: number;
  /** Where the next page starts; null after the last row. */
  next: WalkStep | null;
}

/** How long an unused pinned order is kept. */
export const PIN_IDLE_MS = 15 * 60_000;
/** Bytes of pinned orders kept per database handle beyond the current ones (least recently used go first). */
export const PIN_MAX_BYTES = 64 * 1024 * 1024;

/** Pins of one kind of list, each value with the query key it answers (a cursor of another list finds nothing). */
export function walkPins<V extends { key: string }>(weight: (value: V) => number) {
  const pins = snapshotPins<V>({ weight, maxWeight: PIN_MAX_BYTES, idleMs: PIN_IDLE_MS });
  return {
    pin: pins.pin,
    /** The pinned value of `from` when it is still held and answers `key`. */
    find(db: Parameters<typeof pins.get>[0], from: WalkStep | null, key: string): V | undefined {
      if (from?.snapshot == null) return undefined;
      const value = pins.get(db, from.snapshot);
      return value?.key === key ? value : undefined;
    },
  };
}

/** The first index `i` in `[0, length)` for which `before(i)` is false, where `before` is true then false. */
export function lowerBound(length: number, before: (i: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
