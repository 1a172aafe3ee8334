import { join } from "node:path";
import type { Subprocess } from "bun";

const ROOT = join(import.meta.dir, "..", "..");

export interface ServeProcess {
  url: string;
  proc: Subprocess;
  /** Everything the process wrote to stderr (its NDJSON log) so far. */
  log(): string;
  stop(): Promise<void>;
}

/** Runs `bun src/cli.ts ARGS...` to completion. */
export async function runCli(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn(["bun", "src/cli.ts", ...args], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, ...env },
  });
  const [code, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  return { code, out, err };
}

/**
 * Starts a real `unirank serve` process on a free loopback port (`--port 0`) and resolves once it logs the
 * address it listens on.
 */
export async function startServe(args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  const proc = Bun.spawn(["bun", "src/cli.ts", "serve", "--host", "127.0.0.1", "--port", "0", ...args], {
    cwd: ROOT,
    stdout: "ignore",
    stderr: "pipe",
    env: { ...process.env, ...env },
  });
  let text = "";
  const decoder = new TextDecoder();
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start in 60 s:\n${text}`)), 60_000);
    (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        const m = /"message":"unirank listening".*?"url":"([^"]+)"/.exec(text);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      }
      clearTimeout(timer);
      reject(new Error(`serve exited before listening (code ${await proc.exited}):\n${text}`));
    })().catch(reject);
  });
  // Keep draining stderr so the process never blocks on a full pipe.
  (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  })().catch(() => {});
  return {
    url,
    proc,
    log: () => text,
    async stop() {
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
      await proc.exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `f` every 100 ms until it gives a value, or fails after `ms` naming `what`. */
export async function until<T>(
  what: string,
  f: () => Promise<T | undefined | null | false>,
  ms = 60_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(100);
  }
}
