import type { DB } from "../schema/database.ts";
import { currentGeneration } from "./generation.ts";

export interface GenerationMemoOptions<V> {
  /** Size of a value (e.g. entries held); the least recently used values go once the sum passes `maxWeight`. */
  weight?: (value: V) => number;
  maxWeight?: number;
}

/**
 * Values derived from the data (an in-memory ranking, a search index), built at most once per data generation
 * and key for each database handle, and shared by concurrent callers while being built. A write bumps the
 * generation, so the next call builds afresh; a failed build is forgotten.
 */
export function generationMemo<V>(
  build: (db: DB, key: string) => Promise<V>,
  options: GenerationMemoOptions<V> = {},
): (db: DB, key: string) => Promise<V> {
  const { weight = () => 1, maxWeight = Number.POSITIVE_INFINITY } = options;
  const memos = new WeakMap<
    DB,
    { generation: number; values: Map<string, Promise<V>>; weights: Map<string, number>; total: number }
  >();
  return async (db, key) => {
    // Read the generation before the data, so a value is never labelled newer than what it holds.
    const generation = await currentGeneration(db);
    let memo = memos.get(db);
    if (!memo || memo.generation !== generation) {
      memo = { generation, values: new Map(), weights: new Map(), total: 0 };
      memos.set(db, memo);
    }
    const held = memo.values.get(key);
    if (held) {
      memo.values.delete(key); // most recently used last
      memo.values.set(key, held);
      return held;
    }
    const current = memo;
    const building = build(db, key);
    current.values.set(key, building);
    let value: V;
    try {
      value = await building;
    } catch (e) {
      if (current.values.get(key) === building) current.values.delete(key);
      throw e;
    }
    if (current.values.get(key) === building) {
      const w = weight(value);
      current.weights.set(key, w);
      current.total += w;
      for (const k of current.values.keys()) {
        if (current.total <= maxWeight || k === key) break;
        current.values.delete(k);
        current.total -= current.weights.get(k) ?? 0;
        current.weights.delete(k);
      }
    }
    return value;
  };
}
