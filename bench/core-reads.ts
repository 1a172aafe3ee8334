/**
 * The core library's point reads as an embedder calls them (no HTTP layer, nothing kept in memory): each function of
 * `lib/index.ts` over the bench database on bun:sqlite, at random universities or scans, in µs a call (median of
 * three runs).
 *
 *   bun bench/core-reads.ts DB [--calls N]
 */
import { Database } from "bun:sqlite";
import {
  compare,
  exportUniversity,
  getScan,
  getUniversity,
  scanDiff,
  universityScores,
} from "../lib/index.ts";
import { openDatabase } from "../src/db/open.ts";
import { benchArgs } from "./args.ts";
import { median } from "./median.ts";

const { value, dbPath } = benchArgs("core-reads.ts DB [--calls N]");
const calls = Number(value("calls") ?? 5000);

const raw = new Database(dbPath, { readonly: true });
const ids = raw
  .query("select university_id from latest_scans")
  .values()
  .map((r) => Number(r[0]));
const scans = raw
  .query("select id from scans where status = 'completed'")
  .values()
  .map((r) => Number(r[0]));
raw.close();
let seed = 11;
const pick = (from: number[]) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return from[Math.floor((seed / 2147483648) * from.length)] as number;
};

const opened = await openDatabase(dbPath, { readWindowMs: 1 });
const { db } = opened;
const reads: [string, () => Promise<unknown>][] = [
  ["getUniversity", () => getUniversity(db, pick(ids))],
  ["universityScores", () => universityScores(db, pick(ids))],
  ["getScan", () => getScan(db, pick(scans))],
  ["scanDiff", () => scanDiff(db, { a: pick(scans), b: pick(scans) })],
  [
    "compare (10 ids)",
    () => compare(db, { ids: [...new Set(Array.from({ length: 10 }, () => pick(ids)))].join(",") }),
  ],
  ["exportUniversity", () => exportUniversity(db, pick(ids))],
];
for (const [name, read] of reads) {
  const runs: number[] = [];
  for (let run = 0; run < 3; run++) {
    const start = performance.now();
    for (let i = 0; i < calls; i++) await read();
    runs.push(((performance.now() - start) * 1000) / calls);
  }
  process.stdout.write(`${name.padEnd(18)} ${median(runs).toFixed(2).padStart(8)} µs a call\n`);
}
await opened.close();
