import type { DB } from "../schema/database.ts";
import { currentGenerations, type Generations } from "./generation.ts";
import { latestChangesBetween } from "./latest-changes.ts";

export interface GenerationMemoOptions<V> {
  /** Size of a value (e.g. entries held); the least recently used values go once the sum passes `maxWeight`. */
  weight?: (value: V) => number;
  maxWeight?: number;
  /**
   * The generation the values follow: `data` (the default) for values derived from scans, `universities` for
   * those derived from the `universities` table alone, which a new scan leaves as they are.
   */
  follows?: keyof Generations;
  /**
   * Brings a value of an earlier data generation up to date, given the universities whose latest scan changed
   * since (`latestChangesBetween`, at least one), or gives null when it cannot; the memo then builds. Where the
   * log cannot say what changed, the memo builds without asking; where nothing did, it keeps the value.
   */
  patch?: (db: DB, key: string, value: V, changed: ReadonlySet<number>) => Promise<V | null>;
}

/** A value of one generation, being built or built. */
interface Entry<V> {
  value: Promise<V>;
  generation: number;
  /** `weight(value)` once built; 0 before. */
  weight: number;
  /** The value once built, handed out as it is rather than through its promise again. */
  built?: { value: V };
}

interface Memo<V> {
  generation: number;
  /** This generation's values, least recently used first. */
  values: Map<string, Entry<V>>;
  /** Values of earlier generations, kept to be patched (`patch`), oldest first. */
  earlier: Map<string, Entry<V>>;
}

/**
 * Values derived from the data (an in-memory ranking, a search index), built at most once per generation (data
 * or universities, `follows`) and key for each database handle, and shared by concurrent callers while being
 * built. A write bumps the generation, so the next call builds afresh, or, with `patch`, brings the value of an
 * earlier generation up to date; a failed build or patch is forgotten.
 */
export function generationMemo<V>(
  build: (db: DB, key: string) => Promise<V>,
  options: GenerationMemoOptions<V> = {},
): GenerationMemo<V> {
  const { weight = () => 1, maxWeight = Number.POSITIVE_INFINITY, follows = "data", patch } = options;
  const memos = new WeakMap<DB, Memo<V>>();
  // Only a memo that evicts keeps its values in the order of their use.
  const bounded = Number.isFinite(maxWeight);

  /** The value of `earlier` brought to `generation` by `patch`, or built afresh when it cannot be. */
  const patched = async (db: DB, key: string, earlier: Entry<V>, generation: number): Promise<V> => {
    let value: V;
    try {
      value = await earlier.value;
    } catch {
      return build(db, key);
    }
    const changed = patch ? await latestChangesBetween(db, earlier.generation, generation) : null;
    if (changed === null) return build(db, key);
    if (changed.size === 0) return value;
    return (await patch?.(db, key, value, changed)) ?? build(db, key);
  };

  /** Drops the oldest values (earlier generations' first) while the weights pass `maxWeight`; `keep` stays. */
  const evict = (memo: Memo<V>, keep: string) => {
    let total = 0;
    for (const e of memo.earlier.values()) total += e.weight;
    for (const e of memo.values.values()) total += e.weight;
    for (const [k, e] of memo.earlier) {
      if (total <= maxWeight) return;
      memo.earlier.delete(k);
      total -= e.weight;
    }
    for (const [k, e] of memo.values) {
      if (total <= maxWeight || k === keep) return;
      memo.values.delete(k);
      total -= e.weight;
    }
  };

  /** The entry of `key` for `generation`: held, or its build (or patch) started, and kept once done. */
  const entryAt = (db: DB, key: string, generation: number): Entry<V> => {
    let memo = memos.get(db);
    if (!memo || memo.generation !== generation) {
      // With `patch`, the values not asked for since their generation wait to be patched when they are; not
      // past a generation that went back (a restored database), whose log tells another history.
      const earlier =
        patch && memo && generation > memo.generation
          ? new Map([...memo.earlier, ...memo.values])
          : new Map<string, Entry<V>>();
      memo = { generation, values: new Map(), earlier };
      memos.set(db, memo);
    }
    const held = memo.values.get(key);
    if (held) {
      if (bounded) {
        memo.values.delete(key); // most recently used last
        memo.values.set(key, held);
      }
      return held;
    }
    const current = memo;
    const before = current.earlier.get(key);
    if (before) current.earlier.delete(key);
    const made =
      before && before.generation < generation ? patched(db, key, before, generation) : build(db, key);
    const entry: Entry<V> = { value: made, generation, weight: 0 };
    entry.value = made.then(
      (value) => {
        if (current.values.get(key) === entry) {
          entry.built = { value };
          entry.weight = weight(value);
          evict(current, key);
        }
        return value;
      },
      (e) => {
        if (current.values.get(key) === entry) current.values.delete(key);
        throw e;
      },
    );
    current.values.set(key, entry);
    return entry;
  };

  // Each reads the generation before the data, so a value is never labelled newer than what it holds.
  const memo = async (db: DB, key: string): Promise<V> => {
    const entry = entryAt(db, key, (await currentGenerations(db))[follows]);
    return entry.built ? entry.built.value : entry.value;
  };
  memo.ifBuilt = async (db: DB, key: string): Promise<V | null> => {
    const entry = entryAt(db, key, (await currentGenerations(db))[follows]);
    if (entry.built) return entry.built.value;
    // Being built or patched: nobody waits for it here, and a failure is forgotten as ever.
    entry.value.catch(() => {});
    return null;
  };
  return memo;
}

/** A memo: its value of a key for the current generation, built or patched when there is none yet. */
export interface GenerationMemo<V> {
  (db: DB, key: string): Promise<V>;
  /**
   * The value if this generation's is built already; else null, with its build (or patch) started or under way,
   * for a caller that has another way to answer meanwhile.
   */
  ifBuilt(db: DB, key: string): Promise<V | null>;
}
