/**
 * Seconds per university with Chromium: the browser part over the loopback fixture pages (light, heavy,
 * inaccessible, no viewport), one Chromium shared by the universities, `--concurrency` universities at once. Prints
 * each scan's time, the amortised seconds per university (the run's wall time over its scans), the CPU of this
 * process and its Chromiums per university, and each fixture's five sub-scores per round, so that a change can be
 * checked to measure the same, and where the CPU went by kind of process.
 *
 *   bun bench/browser-scan.ts [--rounds N] [--concurrency N] [--chromium PATH]
 */
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { browserPart } from "../src/scanner/browser/browser-part.ts";
import { guardedLookup } from "../src/scanner/scan-context.ts";
import { startBrowserFixtures } from "../test/support/browser-fixtures.ts";

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const rounds = Number(arg("--rounds") ?? 2);
const concurrency = Number(arg("--concurrency") ?? 1);
const chromiumPath = arg("--chromium") ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * CPU seconds of this process and every Chromium process under it, sampled from `/proc` every 100 ms: each
 * process's own ticks, the last seen kept after it exits. (Reaped children's ticks are not used: Chromium's
 * helpers are not all reaped by their parent, so those undercounted the Chromiums.)
 */
const ownTicks = new Map<number, number>();
/** Each process's kind: Chromium's `--type` (`renderer`, `gpu-process`, …), `browser`, or `bench` for this one. */
const kinds = new Map<number, string>();
const kindOf = (pid: number): string => {
  if (pid === process.pid) return "bench";
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    const type = /--type=([\w-]+)/.exec(cmd)?.[1];
    if (type === undefined) return cmd.includes("chromium") ? "browser" : "other";
    return type === "renderer" && cmd.includes("--top-chrome-webui") ? "renderer (top-chrome WebUI)" : type;
  } catch {
    return "other";
  }
};
const sampleCpu = () => {
  const parents = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const f = readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      parents.set(Number(d), Number(f[1]));
      ticks.set(Number(d), Number(f[11]) + Number(f[12]));
    } catch {}
  }
  for (const [pid, t] of ticks) {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parents.get(p)) {
      if (p === process.pid) {
        ownTicks.set(pid, Math.max(t, ownTicks.get(pid) ?? 0));
        // A renderer forked by the zygote shows the zygote's command line until it sets its own.
        if (!kinds.has(pid) || kinds.get(pid) === "zygote") kinds.set(pid, kindOf(pid));
        break;
      }
    }
  }
};
const treeCpu = (): number => {
  sampleCpu();
  return [...ownTicks.values()].reduce((a, b) => a + b, 0) / 100;
};
const sampler = setInterval(sampleCpu, 100);

const fixtures = await startBrowserFixtures();
const part = browserPart({
  chromiumPath,
  concurrency,
  homeUrl: (d) => `http://${d}/`,
  lookup: guardedLookup({ resolver: fixtures.resolver, allowPrivateTargets: true }),
});
const names = ["light", "heavy", "a11y", "noviewport"] as const;
const seconds: Record<string, number[]> = {};
const scores: Record<string, string[]> = {};
let wall = 0;
let cpu = 0;
let ticks0 = new Map<number, number>();
try {
  const t0 = performance.now();
  await part({ domain: fixtures.domain("light") }, { userAgent: "unirank-bench" });
  console.log(
    `first university (includes loading playwright-core and axe-core): ${((performance.now() - t0) / 1000).toFixed(2)} s`,
  );
  const queue = Array.from({ length: rounds }, () => [...names]).flat();
  const cpu0 = treeCpu();
  ticks0 = new Map(ownTicks);
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
        const t = performance.now();
        const result = await part({ domain: fixtures.domain(name) }, { userAgent: "unirank-bench" });
        const s = (performance.now() - t) / 1000;
        if (Object.keys(result.unmeasured).length > 0)
          throw new Error(`${name}: ${JSON.stringify(result.unmeasured)}`);
        seconds[name] = [...(seconds[name] ?? []), s];
        scores[name] = [...(scores[name] ?? []), Object.values(result.scores).join("/")];
      }
    }),
  );
  wall = (performance.now() - start) / 1000;
  cpu = treeCpu() - cpu0;
} finally {
  clearInterval(sampler);
  await part.close();
  await fixtures.stop();
}
const count = Object.values(seconds).flat().length;
for (const name of names) {
  const s = seconds[name] ?? [];
  console.log(
    `${name.padEnd(11)} ${s.map((x) => x.toFixed(2)).join("  ")} s; sub-scores ${(scores[name] ?? []).join("  ")}`,
  );
}
console.log(
  `${count} universities at concurrency ${concurrency} in ${wall.toFixed(1)} s: ${(wall / count).toFixed(2)} s per university amortised, ` +
    `CPU ${(cpu / count).toFixed(2)} s per university (bench and Chromium); load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
);
const byKind = new Map<string, { seconds: number; processes: number }>();
for (const [pid, t] of ownTicks) {
  const spent = (t - (ticks0.get(pid) ?? 0)) / 100;
  if (spent <= 0) continue;
  const kind = kinds.get(pid) ?? "other";
  const k = byKind.get(kind) ?? { seconds: 0, processes: 0 };
  k.seconds += spent;
  k.processes++;
  byKind.set(kind, k);
}
for (const [kind, k] of [...byKind].sort((a, b) => b[1].seconds - a[1].seconds))
  console.log(
    `  CPU ${kind.padEnd(28)} ${(k.seconds / count).toFixed(2)} s per university (${k.processes} processes)`,
  );
