import type { Payload } from "./route.ts";

/**
 * In-memory LRU of successful route payloads, keyed by operation and its parsed (normalised) parameters.
 * Every entry remembers the data generation it was computed at (`readGeneration`); an entry of another
 * generation is a miss, so any write transaction invalidates every answer at once. Only the payload is
 * kept, never a presented body, so per-request parts (the v2 timestamp, headers) stay fresh and the
 * ETag of a cached answer is exactly the ETag of a recomputed one.
 */
export interface ResponseCacheOptions {
  /** Most entries kept; the least recently used one is dropped beyond it (default 1000). */
  maxEntries?: number;
}

export interface CacheEntry {
  generation: number;
  payload: Payload;
  /** Serialised body per presentation (v1 and raw bodies do not change between requests). */
  bodies: Map<string, string>;
}

export class ResponseCache {
  readonly maxEntries: number;
  readonly #entries = new Map<string, CacheEntry>();
  hits = 0;
  misses = 0;

  constructor(options: ResponseCacheOptions = {}) {
    const max = options.maxEntries ?? 1000;
    if (!Number.isInteger(max) || max < 1) throw new Error("maxEntries must be a positive integer");
    this.maxEntries = max;
  }

  /** Entries held now. */
  get size(): number {
    return this.#entries.size;
  }

  /** The entry for `key` when it was computed at `generation`; a stale entry is dropped. */
  get(key: string, generation: number): CacheEntry | undefined {
    const entry = this.#entries.get(key);
    if (!entry || entry.generation !== generation) {
      if (entry) this.#entries.delete(key);
      this.misses++;
      return undefined;
    }
    // Move to the most recently used end.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    this.hits++;
    return entry;
  }

  set(key: string, generation: number, payload: Payload): CacheEntry {
    const entry: CacheEntry = { generation, payload, bodies: new Map() };
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
    return entry;
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** A stable key: the operation and its parsed parameters (defaults filled, unknown ones dropped), sorted. */
export function cacheKey(operationId: string, inputs: Record<string, Record<string, unknown>>): string {
  const sorted = (o: Record<string, unknown>) =>
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]);
  return JSON.stringify([operationId, sorted(inputs.params ?? {}), sorted(inputs.query ?? {})]);
}
