import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";

/** Process helpers of the benchmark: pinning to a core, RSS sampling, readiness polling. */

export const BUN = process.execPath;
const HAS_TASKSET = existsSync("/usr/bin/taskset") || existsSync("/bin/taskset");

/** Prefixes a command with `taskset -c CORE` when the machine has taskset and more than one core. */
export function pinned(core: number | undefined, cmd: string[]): string[] {
  return core !== undefined && HAS_TASKSET ? ["taskset", "-c", String(core), ...cmd] : cmd;
}

/** Resident set size of a process in bytes (`VmRSS`), or its lifetime peak (`VmHWM`); null once it is gone. */
export function rssOf(pid: number, field: "VmRSS" | "VmHWM" = "VmRSS"): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** CPU seconds a process has used, user and system (`/proc/PID/stat`, in clock ticks of 1/100 s); null once it is gone. */
export function cpuSecondsOf(pid: number): number | null {
  try {
    // The fields after the command's closing parenthesis; utime and stime are the 14th and 15th of the line.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; returns the largest sample. */
export function sampleRss(pid: number, everyMs = 100): { stop(): number } {
  let peak = rssOf(pid) ?? 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(pid) ?? 0);
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, rssOf(pid) ?? 0);
      return peak;
    },
  };
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 200; returns milliseconds since `since` (a performance.now() value). */
export async function waitReady(
  url: string,
  since: number,
  options: { timeoutMs?: number; alive?: () => boolean } = {},
): Promise<number> {
  const deadline = since + (options.timeoutMs ?? 60_000);
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - since;
    } catch {
      // not listening yet
    }
    if (options.alive && !options.alive()) throw new Error(`process died before ${url} answered`);
    if (performance.now() > deadline) throw new Error(`${url} did not answer 200 in time`);
    await Bun.sleep(2);
  }
}

/**
 * Starts `cmd` pinned to core 0 (its output dropped, its error output kept for the message should it die first)
 * and resolves once `ready` answers 200.
 */
export async function startPinned(cmd: string[], ready: string, timeoutMs = 60_000) {
  const proc = Bun.spawn(pinned(0, cmd), { stdout: "ignore", stderr: "pipe" });
  try {
    await waitReady(ready, performance.now(), { timeoutMs, alive: () => proc.exitCode === null });
  } catch (e) {
    proc.kill("SIGKILL");
    const stderr = await new Response(proc.stderr as ReadableStream<Uint8Array>).text();
    throw new Error(`${cmd.join(" ")}: ${(e as Error).message}\n${stderr.slice(-2000)}`);
  }
  // Read and dropped from now on, so a full pipe never blocks the server.
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  (async () => {
    while (!(await reader.read()).done) {}
  })().catch(() => {});
  return proc;
}

/** SIGTERM, then SIGKILL after five seconds; resolves once the process has exited. */
export async function stopProcess(proc: Bun.Subprocess) {
  proc.kill("SIGTERM");
  const timer = setTimeout(() => proc.kill("SIGKILL"), 5000);
  await proc.exited;
  clearTimeout(timer);
}

/** The machine's load averages, as `uptime` shows them. */
export function loadAverage(): { one: number; five: number; fifteen: number; uptime: string } {
  const [one = 0, five = 0, fifteen = 0] = readFileSync("/proc/loadavg", "utf8").split(" ").map(Number);
  let uptime = "";
  try {
    uptime = Bun.spawnSync(["uptime"]).stdout.toString().trim();
  } catch {
    uptime = "";
  }
  return { one, five, fifteen, uptime };
}

export const mb = (bytes: number | null | undefined) =>
  bytes == null ? null : Math.round((bytes / 1024 / 1024) * 10) / 10;

/**
 * Starts `bun src/cli.ts serve --port 0 ARGS` in `root` and resolves with its URL once it listens; its log is
 * read and dropped.
 */
export async function startBenchServe(root: string, args: string[]) {
  const proc = Bun.spawn([BUN, "src/cli.ts", "serve", "--port", "0", ...args], {
    cwd: root,
    stdout: "ignore",
    stderr: "pipe",
  });
  const r = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  let text = "";
  for (;;) {
    const { value, done } = await r.read();
    if (done) throw new Error(`serve exited:\n${text}`);
    text += new TextDecoder().decode(value);
    const m = /"message":"unirank listening".*?"url":"([^"]+)"/.exec(text);
    if (m?.[1]) {
      (async () => {
        for (;;) if ((await r.read()).done) return;
      })();
      return { url: m[1], proc };
    }
  }
}
