/**
 * When a failed delivery is tried again: after the 1st failure 1 min, then 5 min, 30 min, 2 h, 6 h, 12 h; a
 * delivery that fails once more after the last step is marked failed (7 attempts over about 21 hours).
 */
export const RETRY_SCHEDULE_SECONDS: readonly number[] = [60, 300, 1800, 7200, 21600, 43200];

/** Each delay is spread by a fifth either way (RETRY_JITTER) so that receivers coming back up are not hit by every retry at once. */
export const RETRY_JITTER = 0.2;

/**
 * Milliseconds to wait after the `failures`-th consecutive failure (1-based), or null when the schedule is
 * exhausted and the delivery has failed.
 */
export function retryDelayMs(
  failures: number,
  options: { schedule?: readonly number[]; jitter?: number; random?: () => number } = {},
): number | null {
  const schedule = options.schedule ?? RETRY_SCHEDULE_SECONDS;
  const base = schedule[failures - 1];
  if (base === undefined) return null;
  const jitter = options.jitter ?? RETRY_JITTER;
  const r = (options.random ?? Math.random)();
  return Math.round(base * 1000 * (1 - jitter + 2 * jitter * r));
}
