import { type ConsumeInput, RATE_WINDOW_SECONDS, type RateLimitDecision } from "./rate-limiter.ts";

/** Clients a memory limiter keeps; the longest unseen is forgotten beyond. */
const MAX_CLIENTS = 10_000;

/**
 * The rate limiter's rule (`consumeRateLimit`: a sliding log, refused requests not counted) kept in this
 * process's memory: what limits requests while the access state cannot be written. It knows only this process's
 * requests since it took over, and at most 10,000 clients.
 */
export function createMemoryRateLimiter() {
  const hits = new Map<string, number[]>();
  return {
    consume(input: ConsumeInput): RateLimitDecision {
      const windowMs = (input.windowSeconds ?? RATE_WINDOW_SECONDS) * 1000;
      const now = input.now.getTime();
      const log = (hits.get(input.client) ?? []).filter((at) => now - at < windowMs);
      hits.delete(input.client);
      const allowed = log.length < input.limit;
      if (allowed) log.push(now);
      hits.set(input.client, log);
      if (hits.size > MAX_CLIENTS) hits.delete(hits.keys().next().value as string);
      const resetAt = (log[0] ?? now) + windowMs;
      return {
        allowed,
        limit: input.limit,
        remaining: Math.max(0, input.limit - log.length),
        resetAt,
        retryAfter: Math.max(allowed ? 0 : 1, Math.ceil((resetAt - now) / 1000)),
      };
    },
  };
}
