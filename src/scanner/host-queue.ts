/** At most one request at a time per host, with a pause between the end of one and the start of the next. */
export class HostQueue {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly lastDone = new Map<string, number>();

  constructor(private readonly delayMs: number) {}

  run<T>(host: string, task: () => Promise<T>): Promise<T> {
    const key = host.toLowerCase();
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(async () => {
      const wait = (this.lastDone.get(key) ?? 0) + this.delayMs - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      try {
        return await task();
      } finally {
        this.lastDone.set(key, Date.now());
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
