import { join } from "node:path";
import { HOSTILE_SITES, type HostileSite, startHostileWeb } from "./hostile-web.ts";

/**
 * The hostile web in a process of its own, so that its writing (30 MiB of chunks, an endless body) never delays
 * the process that measures: `spawnHostileWeb()` starts this file, which prints its resolver and ports as one JSON
 * line and then `hit <site>` for every request it answers.
 */
export interface HostileWebProcess {
  resolver: { host: string; port: number };
  ports: { http: number; https: number };
  /** Requests answered per site so far. */
  hits(site: HostileSite): number;
  stop(): Promise<void>;
}

export async function spawnHostileWeb(): Promise<HostileWebProcess> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "hostile-web-process.ts")], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const hits = new Map<string, number>();
  let text = "";
  let first: string | null = null;
  while (first === null) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the hostile web did not start");
    text += decoder.decode(value, { stream: true });
    const end = text.indexOf("\n");
    if (end >= 0) {
      first = text.slice(0, end);
      text = text.slice(end + 1);
    }
  }
  const count = (lines: string) => {
    for (const line of lines.split("\n")) {
      const m = /^hit (\S+)$/.exec(line);
      if (m?.[1]) hits.set(m[1], (hits.get(m[1]) ?? 0) + 1);
    }
  };
  (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
      const end = text.lastIndexOf("\n");
      if (end >= 0) {
        count(text.slice(0, end));
        text = text.slice(end + 1);
      }
    }
  })().catch(() => {});
  const { resolver, ports } = JSON.parse(first) as Pick<HostileWebProcess, "resolver" | "ports">;
  return {
    resolver,
    ports,
    hits: (site) => hits.get(site) ?? 0,
    async stop() {
      proc.kill("SIGKILL");
      await proc.exited;
    },
  };
}

if (import.meta.main) {
  const web = await startHostileWeb();
  process.stdout.write(`${JSON.stringify({ resolver: web.resolver, ports: web.ports })}\n`);
  const seen = new Map(HOSTILE_SITES.map((s) => [s, 0]));
  setInterval(() => {
    for (const site of HOSTILE_SITES) {
      const n = web.hits.get(site) ?? 0;
      for (let i = seen.get(site) ?? 0; i < n; i++) process.stdout.write(`hit ${site}\n`);
      seen.set(site, n);
    }
  }, 20);
}
