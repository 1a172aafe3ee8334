import { openAccessState } from "../src/db/open.ts";
import type { OpenedDatabase } from "../src/db/opened-database.ts";
import { createAccessGuard } from "../src/http/access.ts";
import { createApp, type UnirankApp } from "../src/http/app.ts";
import type { RequestObserver } from "../src/http/observer.ts";
import type { LogFunction } from "../src/logger.ts";
import { appContext } from "../src/server.ts";

export interface ServedAppOptions {
  /** The response cache (off by default, as `serve --no-cache`). */
  cache?: boolean;
  logDir?: string;
  log?: LogFunction;
  observer?: RequestObserver;
}

/**
 * The app as `unirank serve` builds it, for the benches that ask it in process (`app.handle` in a loop): access
 * control with the rate limit off and the audit log on, written to the access-state file beside the data as the
 * server's is (in the data file, its writes would end the read transaction the data window holds). `close()`
 * flushes the audit log and closes that file; the data's handle stays the caller's.
 */
export async function servedApp(
  dbPath: string,
  opened: OpenedDatabase,
  options: ServedAppOptions = {},
): Promise<{ app: UnirankApp; close(): Promise<void> }> {
  const config = {
    db: dbPath,
    logDir: options.logDir ?? "/tmp",
    cache: options.cache ?? false,
    cacheEntries: 1000,
    minFreeDiskGb: 0,
    historyScans: null,
  } as Parameters<typeof appContext>[0];
  const ctx = appContext(config, opened, options.log ?? (() => {}));
  const state = await openAccessState(dbPath, opened, { checkpointThread: true });
  const access = createAccessGuard({
    db: opened.db,
    stateDb: state.db,
    clock: ctx.clock,
    anonymousLimit: 0,
    pruneIntervalMs: 0,
  });
  const app = createApp({ ...ctx, access, ...(options.observer ? { observer: options.observer } : {}) });
  return {
    app,
    async close() {
      await access.close();
      await state.close();
    },
  };
}
