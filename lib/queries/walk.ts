import { snapshotPins } from "../db/snapshot-pins.ts";
import type { DB } from "../schema/database.ts";

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
    /**
     * Where a walk goes on: the order `from` pinned, at its offset, while this process holds it (and it answers
     * `key`); else the current order (`current`) after `from`'s last row (`positionAfter`), or at its start.
     */
    async resume(
      db: DB,
      from: WalkStep | null,
      key: string,
      current: () => Promise<V>,
      positionAfter: (order: V, after: readonly (string | number)[]) => number | Promise<number>,
    ): Promise<{ order: V; offset: number }> {
      const held = from?.snapshot == null ? undefined : pins.get(db, from.snapshot);
      if (from && held?.key === key) return { order: held, offset: from.offset };
      const order = await current();
      return { order, offset: from ? await positionAfter(order, from.after) : 0 };
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
