import { firstAtLeast } from "../sorted/first-at-least.ts";

/**
 * How a sorted array changes under a patch, as runs to copy: entries `from`..`to` (exclusive) of the old array at
 * `out` in the new one, or one added entry. A patch of a few entries of a long array is then a few native copies
 * (`TypedArray.set`) instead of a walk of every entry.
 */
export type PatchRun = { from: number; to: number; out: number } | { added: number; out: number };

/**
 * The runs of the new array: the old one's `length` entries without those at `removed` (ascending, distinct),
 * with added entry `k` inserted before old entry `before[k]` (ascending; `length` for the end; added entries of one
 * place in the order given).
 */
export function patchRuns(length: number, removed: readonly number[], before: readonly number[]): PatchRun[] {
  const runs: PatchRun[] = [];
  let i = 0;
  let out = 0;
  let r = 0;
  let a = 0;
  while (i < length || a < before.length) {
    const nextRemoved = r < removed.length ? (removed[r] as number) : length;
    const nextAdded = a < before.length ? (before[a] as number) : length;
    const stop = Math.min(nextRemoved, nextAdded);
    if (stop > i) {
      runs.push({ from: i, to: stop, out });
      out += stop - i;
      i = stop;
    }
    // Added entries go before the old entry at `stop`, whether or not it is removed.
    while (a < before.length && before[a] === i) runs.push({ added: a++, out: out++ });
    if (r < removed.length && removed[r] === i) {
      r++;
      i++;
    } else if (i === length && a >= before.length) break;
  }
  return runs;
}

/** An entry of an array ordered by value descending, then id ascending (a ranking, the declines of a category). */
export interface ValueEntry {
  id: number;
  value: number;
}

/** The first position of the array (`values`, `ids`) that comes after (`value`, `id`) in its order. */
function placeByValue(values: ArrayLike<number>, ids: Int32Array, value: number, id: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = values[mid] as number;
    if (v > value || (v === value && (ids[mid] as number) < id)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The runs that patch an array ordered by value descending, then id ascending (`values`, `ids`): the entries of the
 * `changed` ids leave their places (a native search each), and `added` (the changed ones that belong in it now,
 * sorted here into the array's order) come in where they go.
 */
export function patchByValue(
  values: ArrayLike<number>,
  ids: Int32Array,
  changed: Iterable<number>,
  added: ValueEntry[],
): PatchRun[] {
  const removed: number[] = [];
  for (const id of changed) {
    const at = ids.indexOf(id);
    if (at >= 0) removed.push(at);
  }
  removed.sort((x, y) => x - y);
  added.sort((a, b) => b.value - a.value || a.id - b.id);
  const before = added.map((e) => placeByValue(values, ids, e.value, e.id));
  return patchRuns(ids.length, removed, before);
}

/**
 * The runs that patch an array ordered by id ascending (`ids`): the entries of the `changed` ids leave their places
 * (at `removed`, ascending, returned too), and `added` (ascending ids, the changed ones that belong in it now) come
 * in where they go.
 */
export function patchById(
  ids: Int32Array,
  changed: Iterable<number>,
  added: readonly number[],
): { runs: PatchRun[]; removed: number[] } {
  const removed: number[] = [];
  for (const id of changed) {
    const at = firstAtLeast(ids, id);
    if (ids[at] === id) removed.push(at);
  }
  removed.sort((x, y) => x - y);
  const runs = patchRuns(
    ids.length,
    removed,
    added.map((id) => firstAtLeast(ids, id)),
  );
  return { runs, removed };
}

/** The length of the array `runs` make. */
export const patchedLength = (runs: readonly PatchRun[]): number => {
  const last = runs.at(-1);
  return last === undefined ? 0 : "added" in last ? last.out + 1 : last.out + last.to - last.from;
};
