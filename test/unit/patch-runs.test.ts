import { expect, test } from "bun:test";
import { patchById, patchRuns } from "../../lib/queries/patch-runs.ts";

/** The array `patchRuns` describes, applied to `old` with `added`. */
function apply(old: number[], added: number[], removed: number[], before: number[]): number[] {
  const out: number[] = [];
  for (const run of patchRuns(old.length, removed, before)) {
    expect(run.out).toBe(out.length);
    if ("added" in run) out.push(added[run.added] as number);
    else out.push(...old.slice(run.from, run.to));
  }
  return out;
}

/** The same, the slow way: remove, then insert each added value before its old neighbour. */
function naive(old: number[], added: number[], removed: number[], before: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i <= old.length; i++) {
    before.forEach((b, k) => {
      if (b === i) out.push(added[k] as number);
    });
    if (i < old.length && !removed.includes(i)) out.push(old[i] as number);
  }
  return out;
}

test("patch runs: nothing changed, everything removed, added at the start, the end and between", () => {
  const old = [10, 20, 30, 40];
  expect(patchRuns(4, [], [])).toEqual([{ from: 0, to: 4, out: 0 }]);
  expect(patchRuns(0, [], [])).toEqual([]);
  expect(apply(old, [], [0, 1, 2, 3], [])).toEqual([]);
  expect(apply(old, [5, 45], [], [0, 4])).toEqual([5, 10, 20, 30, 40, 45]);
  expect(apply(old, [25, 26], [2], [2, 2])).toEqual([10, 20, 25, 26, 40]);
  expect(apply([], [1, 2], [], [0, 0])).toEqual([1, 2]);
});

test("patch runs: random patches of sorted arrays give what removing and inserting one by one gives", () => {
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let round = 0; round < 2000; round++) {
    const length = random(30);
    const old = Array.from({ length }, (_, i) => i * 10);
    const removed = [...new Set(Array.from({ length: random(5) }, () => random(length + 1)))]
      .filter((p) => p < length)
      .sort((a, b) => a - b);
    const before = Array.from({ length: random(5) }, () => random(length + 1)).sort((a, b) => a - b);
    const added = before.map((b, k) => b * 10 - 5 + k / 10);
    expect(apply(old, added, removed, before)).toEqual(naive(old, added, removed, before));
  }
});

test("patch by id: the changed ids leave, the added come in where the ascending order puts them", () => {
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 48271) % 2147483647;
    return seed % n;
  };
  for (let round = 0; round < 500; round++) {
    const old = [...new Set(Array.from({ length: random(40) }, () => random(100)))].sort((a, b) => a - b);
    const changed = new Set(Array.from({ length: random(8) }, () => random(100)));
    // Some changed ids are back (in the array or new to it), others are gone.
    const added = [...changed].filter(() => random(3) > 0).sort((a, b) => a - b);
    const { runs, removed } = patchById(Int32Array.from(old), changed, added);
    expect(removed.map((i) => old[i])).toEqual(old.filter((id) => changed.has(id)));
    const out: number[] = [];
    for (const run of runs) {
      if ("added" in run) out.push(added[run.added] as number);
      else out.push(...old.slice(run.from, run.to));
    }
    expect(out).toEqual([...old.filter((id) => !changed.has(id)), ...added].sort((a, b) => a - b));
  }
});
