/** Where a queue reads the time and waits: the real clock by default. */
export interface QueueTimer {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realTimer: QueueTimer = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** At most one request at a time per host, with a pause between the end of one and the start of the next. */
export class HostQueue {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly lastDone = new Map<string, number>();

  constructor(
    private readonly delayMs: number,
    private readonly timer: QueueTimer = realTimer,
  ) {}

  run<T>(host: string, task: () => Promise<T>): Promise<T> {
    const key = host.toLowerCase();
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(async () => {
      const last = this.lastDone.get(key);
      const wait = last === undefined ? 0 : last + this.delayMs - this.timer.now();
      if (wait > 0) await this.timer.sleep(wait);
      try {
        return await task();
      } finally {
        this.lastDone.set(key, this.timer.now());
      }
    });
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) {
        this.tails.delete(key);
        // Forget the host once its pause is over, so a long run keeps no entry per host scanned.
        setTimeout(() => {
          if (!this.tails.has(key)) this.lastDone.delete(key);
        }, this.delayMs).unref?.();
      }
    });
    return result;
  }
}
