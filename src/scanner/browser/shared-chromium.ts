import type { Browser } from "playwright-core";
import { launchChromium } from "./chromium.ts";
import { RESOLVE_PROXY_ONLY } from "./pinned-proxy.ts";

/** One university's use of the shared Chromium; `release()` once its contexts are closed. */
export interface ChromiumLease {
  browser: Browser;
  release(): void;
}

export interface SharedChromiumOptions {
  path: string;
  launchTimeoutMs?: number;
  /** Universities one Chromium serves before it is replaced (default 50). */
  maxUses?: number;
  /** A Chromium nobody uses is closed after this many ms (default 30 000). */
  idleMs?: number;
}

interface Running {
  browser: Browser;
  uses: number;
  users: number;
  retired: boolean;
  stopped: boolean;
}

/**
 * One Chromium kept for many universities, each in browser contexts of its own that reach sites through a pinned
 * proxy (its resolver resolves nothing else: `RESOLVE_PROXY_ONLY`). It is launched on first use and again after
 * it crashed or disconnected, after `maxUses` universities (so what Chromium keeps between contexts stays
 * bounded) or after `idleMs` unused; a replaced Chromium closes once its last university releases it.
 */
export class SharedChromium {
  /** Chromiums launched so far. */
  launches = 0;
  private current: Running | null = null;
  private launching: Promise<Running> | null = null;
  private idle: ReturnType<typeof setTimeout> | null = null;
  private readonly closing = new Set<Promise<void>>();
  private readonly maxUses: number;
  private readonly idleMs: number;

  constructor(private readonly options: SharedChromiumOptions) {
    this.maxUses = Math.max(1, options.maxUses ?? 50);
    this.idleMs = options.idleMs ?? 30_000;
  }

  async acquire(): Promise<ChromiumLease> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const now = this.current;
    if (now && (!now.browser.isConnected() || now.uses >= this.maxUses)) this.retire(now);
    if (!this.current && !this.launching) this.launching = this.launch();
    const running = this.current ?? (await (this.launching as Promise<Running>));
    running.uses++;
    running.users++;
    let released = false;
    return {
      browser: running.browser,
      release: () => {
        if (released) return;
        released = true;
        running.users--;
        if (running.users > 0) return;
        if (running.retired) this.stop(running);
        else if (this.current === running && this.idleMs > 0) {
          if (this.idle) clearTimeout(this.idle);
          this.idle = setTimeout(() => {
            if (this.current === running && running.users === 0) this.retire(running);
          }, this.idleMs);
          this.idle.unref?.();
        }
      },
    };
  }

  /** Closes every Chromium and waits for them to stop (a later `acquire` launches a new one). */
  async close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    await this.launching?.catch(() => {});
    if (this.current) {
      this.current.users = 0;
      this.retire(this.current);
    }
    await Promise.all([...this.closing]);
  }

  private async launch(): Promise<Running> {
    try {
      const browser = await launchChromium(this.options.path, this.options.launchTimeoutMs, [
        RESOLVE_PROXY_ONLY,
      ]);
      this.launches++;
      const running: Running = { browser, uses: 0, users: 0, retired: false, stopped: false };
      browser.on("disconnected", () => {
        if (this.current === running) this.current = null;
      });
      this.current = running;
      return running;
    } finally {
      this.launching = null;
    }
  }

  private retire(running: Running): void {
    running.retired = true;
    if (this.current === running) this.current = null;
    if (running.users === 0) this.stop(running);
  }

  private stop(running: Running): void {
    if (running.stopped) return;
    running.stopped = true;
    const done = running.browser.close().catch(() => {});
    this.closing.add(done);
    void done.finally(() => this.closing.delete(done));
  }
}
