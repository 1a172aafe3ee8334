/**
 * Time that passes only when the test says so: `sleep(ms)` waits for a timer at `now + ms`; `run()` lets every
 * pending promise settle, then jumps to the earliest timer and fires it, until none is left.
 */
export function manualTimer() {
  const timers: { at: number; seq: number; fire: () => void }[] = [];
  let seq = 0;
  const settle = async () => {
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  const timer = {
    time: 0,
    now: () => timer.time,
    sleep: (ms: number) =>
      new Promise<void>((resolve) => {
        timers.push({ at: timer.time + Math.max(0, ms), seq: seq++, fire: resolve });
      }),
    /** Fires every timer in time order, letting promises settle between them; returns when none is left. */
    async run(): Promise<void> {
      await settle();
      while (timers.length > 0) {
        timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const next = timers.shift() as (typeof timers)[number];
        timer.time = Math.max(timer.time, next.at);
        next.fire();
        await settle();
      }
    },
  };
  return timer;
}
