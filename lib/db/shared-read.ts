/**
 * A read shared by every caller within `windowMs` of it (per key object, e.g. a database handle). Reads that
 * cost more than the answer they give under load (a SQLite read transaction pays for file locking whatever the
 * statement; figures in docs/performance.md) are made once for the requests of that window instead of once each. What another
 * process commits is seen at most `windowMs` later; `forget()` makes the next call read again at once (the
 * writers of this process call it, so their own commits are seen immediately).
 */
export interface SharedRead<K extends object, V> {
  (key: K): Promise<V>;
  forget(): void;
}

export function sharedRead<K extends object, V>(
  read: (key: K) => Promise<V>,
  windowMs: number | (() => number),
): SharedRead<K, V> {
  const window = typeof windowMs === "number" ? () => windowMs : windowMs;
  let reads = new WeakMap<K, { at: number; value: Promise<V> }>();
  const shared = (key: K): Promise<V> => {
    const now = performance.now();
    const held = reads.get(key);
    if (held !== undefined && now - held.at < window()) return held.value;
    const value = read(key);
    const entry = { at: now, value };
    const current = reads;
    current.set(key, entry);
    // A failed read is not shared: the next caller tries again.
    value.catch(() => {
      if (current.get(key) === entry) current.delete(key);
    });
    return value;
  };
  return Object.assign(shared, {
    forget() {
      reads = new WeakMap();
    },
  });
}
