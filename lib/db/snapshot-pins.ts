import type { DB } from "../schema/database.ts";

/**
 * Values a walk through a list keeps reading after the data generation moved on (the order of a ranking as it
 * stood when the walk began), held per database handle under a short random id: a value stays while walks use it,
 * and goes once unused for `idleMs` or when the held weight passes `maxWeight` (least recently used first). The
 * same value pinned twice has one id, so walks begun in one generation share it.
 */
export interface SnapshotPinsOptions<V> {
  /** Size of a value in bytes. */
  weight: (value: V) => number;
  maxWeight: number;
  idleMs: number;
  /** Milliseconds now (default `Date.now`). */
  now?: () => number;
}

interface Held<V> {
  value: V;
  weight: number;
  usedAt: number;
}

export interface SnapshotPins<V> {
  /** Holds `value` and returns its id. */
  pin(db: DB, value: V): string;
  /** The value held under `id`, or undefined when it is gone (or was never held by this process). */
  get(db: DB, id: string): V | undefined;
}

const randomId = (): string => {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
};

export function snapshotPins<V extends object>(options: SnapshotPinsOptions<V>): SnapshotPins<V> {
  const now = options.now ?? Date.now;
  const stores = new WeakMap<DB, { held: Map<string, Held<V>>; ids: WeakMap<V, string>; total: number }>();
  const storeOf = (db: DB) => {
    let store = stores.get(db);
    if (!store) {
      store = { held: new Map(), ids: new WeakMap(), total: 0 };
      stores.set(db, store);
    }
    return store;
  };
  const sweep = (store: ReturnType<typeof storeOf>, keep: string | undefined) => {
    const at = now();
    for (const [id, h] of store.held) {
      if (id === keep) continue;
      if (at - h.usedAt <= options.idleMs && store.total <= options.maxWeight) break;
      store.held.delete(id);
      store.total -= h.weight;
    }
  };
  const touch = (store: ReturnType<typeof storeOf>, id: string, h: Held<V>) => {
    h.usedAt = now();
    store.held.delete(id); // most recently used last
    store.held.set(id, h);
  };
  return {
    pin(db, value) {
      const store = storeOf(db);
      let id = store.ids.get(value);
      const held = id === undefined ? undefined : store.held.get(id);
      if (id !== undefined && held !== undefined) {
        touch(store, id, held);
      } else {
        id = randomId();
        const h = { value, weight: options.weight(value), usedAt: now() };
        store.ids.set(value, id);
        store.held.set(id, h);
        store.total += h.weight;
      }
      sweep(store, id);
      return id;
    },
    get(db, id) {
      const store = storeOf(db);
      sweep(store, undefined);
      const held = store.held.get(id);
      if (held === undefined) return undefined;
      touch(store, id, held);
      return held.value;
    },
  };
}
