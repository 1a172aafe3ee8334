/**
 * What the app tells about each request it answered, to whoever listens: metrics and the access log in `serve`,
 * anything an embedder passes. Runtime-agnostic; the app calls `observe` once per answer, after the response
 * is made (its body may still be on its way).
 */
export interface RequestRecord {
  method: string;
  /** The route's template (`/api/v1/universities/:id`, without a mount prefix); null when no route matched. */
  route: string | null;
  status: number;
  /** Seconds from arrival to the response. */
  seconds: number;
  requestId: string;
  /** The API key's id when the request was admitted with one. */
  keyId: number | null;
  /** The limit that refused the request (`per-ip`, `per-key`), else null. */
  rateLimited: string | null;
  /** The client's address (`X-Forwarded-For` believed from trusted proxies only); worked out when asked. */
  clientIp(): string | undefined;
}

/** What access control learnt of a request, for the observers. */
export interface AdmissionFacts {
  /** The admitted key's id, once admitted with one. */
  readonly keyId: number | null;
  /** The limit's policy (`per-ip`, `per-key`) when it refused the request, else null. */
  readonly rateLimited: string | null;
  /** The client's address as the limits see it. */
  clientIp(): string;
}

export interface RequestObserver {
  observe(record: RequestRecord): void;
}

/** One observer that tells several. */
export function observers(
  list: readonly (RequestObserver | null | undefined)[],
): RequestObserver | undefined {
  const present = list.filter((o): o is RequestObserver => o !== null && o !== undefined);
  if (present.length <= 1) return present[0];
  return {
    observe(record) {
      for (const o of present) o.observe(record);
    },
  };
}
