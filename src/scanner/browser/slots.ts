/** Places for browser measurements: `acquire` resolves true once one is free (false when `signal` fires first). */
export interface SlotHolder {
  acquire(signal?: AbortSignal): Promise<boolean>;
  release(): void;
}

/** At most `size` holders at once; waiting ends early, with `false`, when the signal fires. */
export class Slots implements SlotHolder {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = Math.max(1, Math.floor(size));
  }

  async acquire(signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return false;
    if (this.free > 0) {
      this.free--;
      return true;
    }
    return new Promise((resolve) => {
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve(true);
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(grant);
        if (i >= 0) this.waiting.splice(i, 1);
        resolve(false);
      };
      this.waiting.push(grant);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}
