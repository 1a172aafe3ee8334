/**
 * Summarises a `.cpuprofile` (from `bun --cpu-prof`): the functions with the most self time and the most
 * inclusive time, as shares of all samples.
 *
 *   bun bench/cpu-profile.ts FILE.cpuprofile [--top N]
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

const [file] = process.argv.slice(2);
if (!file) throw new Error("usage: cpu-profile.ts FILE.cpuprofile [--top N]");
const topIndex = process.argv.indexOf("--top");
const top = topIndex > 0 ? Number(process.argv[topIndex + 1]) : 25;
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (n: ProfileNode) => {
  const { functionName, url, lineNumber } = n.callFrame;
  const where = url ? `${url.replace(/^.*\/(node_modules\/)?/, "")}:${lineNumber + 1}` : "native";
  return `${functionName || "(anonymous)"} ${where}`;
};

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const id of profile.samples) {
  const node = byId.get(id);
  if (!node) continue;
  self.set(label(node), (self.get(label(node)) ?? 0) + 1);
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const l = label(byId.get(cur) as ProfileNode);
    if (seen.has(l)) continue;
    seen.add(l);
    inclusive.set(l, (inclusive.get(l) ?? 0) + 1);
  }
}
const total = profile.samples.length;
const print = (title: string, m: Map<string, number>) => {
  process.stdout.write(`${title} (${total} samples)\n`);
  for (const [l, n] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${((n / total) * 100).toFixed(1).padStart(6)} %  ${l}\n`);
  }
};
print("self", self);
print("inclusive", inclusive);
