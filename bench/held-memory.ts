/**
 * What the data a server keeps in memory weighs, structure by structure: each structure the reads keep per data
 * generation is built once over the database, and the typed arrays (each buffer once) and strings reachable from
 * it are counted. Beside bench/memory-by-scenario.ts, which measures the process, this names the parts.
 *
 *   bun bench/held-memory.ts DB
 */
import { CATEGORIES, CATEGORY_NAMES } from "../lib/index.ts";
import { rankingOf } from "../lib/queries/rank.ts";
import { declinesOf } from "../lib/queries/regressions.ts";
import { scanTotals } from "../lib/queries/scan-totals.ts";
import { searchIndex } from "../lib/queries/search-index.ts";
import { searchOrder } from "../lib/queries/search-orders.ts";
import { universityOrder } from "../lib/queries/university-order.ts";
import { openSqlite } from "../src/db/open.ts";
import { historyTableOf } from "../src/http/spliced-json/history-table.ts";
import { latestScoreTextsOf } from "../src/http/spliced-json/latest-score-texts.ts";
import { rankedRowsOf } from "../src/http/spliced-json/ranked-row-texts.ts";
import { universityTextsOf } from "../src/http/spliced-json/university-texts.ts";
import { benchArgs } from "./args.ts";

const { dbPath } = benchArgs("held-memory.ts DB");
const opened = openSqlite(dbPath);
const db = opened.db;
const seen = new Set<unknown>();

/** Bytes of the typed arrays and strings (two bytes a character at most) reachable from `value`, by member. */
function sizeOf(value: unknown, parts: Map<string, number>, member: string): number {
  if (typeof value === "string") {
    parts.set(member, (parts.get(member) ?? 0) + value.length);
    return value.length;
  }
  if (value === null || typeof value !== "object" || seen.has(value)) return 0;
  seen.add(value);
  if (ArrayBuffer.isView(value)) {
    if (seen.has(value.buffer)) return 0;
    seen.add(value.buffer);
    parts.set(member, (parts.get(member) ?? 0) + value.buffer.byteLength);
    return value.buffer.byteLength;
  }
  const entries =
    value instanceof Map ? [...value.values()].map((v) => ["", v] as const) : Object.entries(value);
  let total = 0;
  for (const [k, v] of entries) total += sizeOf(v, parts, member === "" ? k : member);
  return total;
}

const index = await searchIndex(db);
const sorts = ["domain", "country", "created_at"] as const;
const structures: [string, () => Promise<unknown>][] = [
  ["the list's order", () => universityOrder(db)],
  ["the search index", async () => index],
  [
    "search orders (3 sorts × 2 directions)",
    () =>
      Promise.all(
        sorts.flatMap((s) => [searchOrder(db, index, s, "asc"), searchOrder(db, index, s, "desc")]),
      ),
  ],
  ["the list's rows (university texts)", () => universityTextsOf(db)],
  [
    `rankings (${CATEGORY_NAMES.length} leaderboard scores)`,
    () => Promise.all(CATEGORY_NAMES.map((c) => rankingOf(db, CATEGORIES[c], undefined))),
  ],
  ["ranked rows' details", () => rankedRowsOf(db)],
  ["latest scores", () => latestScoreTextsOf(db)],
  ["histories", () => historyTableOf(db)],
  [
    `declines (${CATEGORY_NAMES.length} categories)`,
    () => Promise.all(CATEGORY_NAMES.map((c) => declinesOf(db, c))),
  ],
  ["scan totals", () => scanTotals(db)],
];

const mb = (n: number) => (n / 1048576).toFixed(1).padStart(5);
let all = 0;
process.stdout.write("| structure | MB | its largest members (MB) |\n|---|---:|---|\n");
for (const [name, build] of structures) {
  const parts = new Map<string, number>();
  const n = sizeOf(await build(), parts, "");
  all += n;
  const largest = [...parts]
    .sort((x, y) => y[1] - x[1])
    .filter(([, b]) => b >= 262144)
    .slice(0, 4)
    .map(([k, b]) => `\`${k}\` ${mb(b).trim()}`);
  process.stdout.write(`| ${name} | ${mb(n)} | ${largest.join(", ")} |\n`);
}
process.stdout.write(`| in all | ${mb(all)} | |\n`);
await opened.close();
