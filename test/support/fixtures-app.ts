import type { DB, HostChecks } from "../../lib/index.ts";
import { createApp } from "../../src/http/app.ts";
import type { ResponseCache } from "../../src/http/cache.ts";
import { bunConnInfo } from "../../src/http/conn-info.ts";
import type { AppContext } from "../../src/http/context.ts";

export interface LogLine {
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

/** An AppContext over a test database; logs are collected, host checks answer healthy unless overridden. */
export function testContext(
  db: DB,
  options: { cache?: ResponseCache | false; hostChecks?: Partial<HostChecks> } = {},
): AppContext & { logs: LogLine[] } {
  const logs: LogLine[] = [];
  const cache = options.cache;
  return {
    db,
    version: "0.0.0-test",
    clock: () => new Date(),
    hostChecks: {
      freeDiskBytes: async () => 100 * 1024 ** 3,
      logsWritable: async () => true,
      cacheEntries: () => (cache ? cache.size : 0),
      ...options.hostChecks,
    },
    minFreeDiskGb: 1,
    ...(cache === undefined ? {} : { cache }),
    log: (level, message, fields) => {
      logs.push({ level, message, ...(fields ? { fields } : {}) });
    },
    logs,
  };
}

/** How a test reaches the app: in-process through `handle`, or over a real loopback socket. */
export interface Client {
  mode: "app" | "server";
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export function appClient(ctx: AppContext): Client {
  const app = createApp(ctx);
  return {
    mode: "app",
    fetch: (path, init) => app.handle(new Request(`http://unirank.test${path}`, init)),
    close: async () => {},
  };
}

export function serverClient(ctx: AppContext): Client & { url: string } {
  const app = createApp(ctx);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (request, bun) => app.handle(request, bunConnInfo(bun, request)),
  });
  const url = `http://127.0.0.1:${server.port}`;
  return {
    mode: "server",
    url,
    fetch: (path, init) => fetch(`${url}${path}`, { ...init, decompress: false } as RequestInit),
    close: async () => {
      server.stop(true);
    },
  };
}
