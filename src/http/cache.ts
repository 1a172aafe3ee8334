import type { Payload } from "./route.ts";

/**
 * In-memory LRU of successful route payloads, keyed by operation and its parsed (normalised) parameters.
 * Every entry remembers the data generation it was computed at (`readGeneration`); an entry of another
 * generation is a miss, so any write transaction invalidates every answer at once. Beside the payload an entry
 * keeps its serialised form per presentation, without per-request parts (the v2 timestamp, headers), so those
 * stay fresh and the ETag of a cached answer is exactly the ETag of a recomputed one.
 */
export interface ResponseCacheOptions {
  /** Most entries kept; the least recently used one is dropped beyond it (default 1000). */
  maxEntries?: number;
}

/** A payload serialised once, with the entity tag of what it says. */
export interface Rendered {
  body: string;
  etag: string;
}

export interface CacheEntry {
  generation: number;
  payload: Payload;
  /** Serialised answer and its ETag per presentation (`serialise`: for v2 the envelope without its timestamp). */
  rendered: Map<string, Rendered>;
}

/** The answer of `resolve`: the payload, and the cache entry when it was (or is now) cached. */
export interface Resolved {
  payload: Payload;
  entry: CacheEntry | undefined;
}

export class ResponseCache {
  readonly maxEntries: number;
  readonly #entries = new Map<string, CacheEntry>();
  /** Computations under way, by key: concurrent misses of one key and generation share one (single-flight). */
  readonly #inflight = new Map<string, { generation: number; promise: Promise<Resolved> }>();
  hits = 0;
  misses = 0;
  /** Misses answered by joining a computation already under way instead of starting one. */
  joined = 0;

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
    const entry: CacheEntry = { generation, payload, rendered: new Map() };
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
    return entry;
  }

  /**
   * The cached payload of `key` at `generation`, or the result of `compute`, cached when its status is 200.
   * Single-flight: while a computation of `key` at `generation` is under way, other misses of the same key
   * and generation wait for it instead of computing again, and share its result or its error.
   */
  async resolve(
    key: string,
    generation: number,
    compute: () => Payload | Promise<Payload>,
  ): Promise<Resolved> {
    const entry = this.get(key, generation);
    if (entry) return { payload: entry.payload, entry };
    const running = this.#inflight.get(key);
    if (running && running.generation === generation) {
      this.joined++;
      return running.promise;
    }
    const promise = (async (): Promise<Resolved> => {
      const payload = await compute();
      return {
        payload,
        entry: (payload.status ?? 200) === 200 ? this.set(key, generation, payload) : undefined,
      };
    })();
    const flight = { generation, promise };
    this.#inflight.set(key, flight);
    try {
      return await promise;
    } finally {
      if (this.#inflight.get(key) === flight) this.#inflight.delete(key);
    }
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
