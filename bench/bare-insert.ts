/**
 * Child of the benchmark: the floor an import is measured against. Reads the same NDJSON file and inserts
 * the same rows into a freshly migrated SQLite file (same schema and indexes) with bare `bun:sqlite`
 * prepared statements in one transaction: no validation, no upsert, no latest-scan refresh.
 *
 *   bun bench/bare-insert.ts DATASET.ndjson OUT.db
 */
import { Database } from "bun:sqlite";
import { type IngestRecord, migrate, SCORE_NAMES } from "../lib/index.ts";
import { searchKey } from "../lib/text/search-key.ts";
import { openSqlite } from "../src/db/open.ts";
import { readNdjson } from "./ndjson.ts";

const [input, out] = process.argv.slice(2);
if (!input || !out) throw new Error("usage: bare-insert.ts DATASET.ndjson OUT.db");

const opened = openSqlite(out);
await migrate(opened.db);
await opened.close();

const started = performance.now();
const db = new Database(out);
db.exec("pragma journal_mode = wal");
db.exec("pragma synchronous = normal");
db.exec("pragma cache_size = -65536");
const insertUniversity = db.prepare(
  "insert into universities (domain, name, country, created_at, search_text) values (?, ?, ?, ?, ?)",
);
const scanColumns = ["university_id", "source_id", "status", "started_at", "completed_at", ...SCORE_NAMES];
const insertScan = db.prepare(
  `insert into scans (${scanColumns.join(", ")}) values (${scanColumns.map(() => "?").join(", ")})`,
);
const ids = new Map<string, number>();
let rows = 0;
db.exec("begin immediate");
for await (const r of readNdjson<IngestRecord>(input)) {
  if (r.type === "university") {
    const res = insertUniversity.run(
      r.domain,
      r.name,
      r.country,
      r.created_at ?? "2026-01-01 00:00:00",
      searchKey(`${r.name} ${r.domain}`),
    );
    ids.set(r.domain, Number(res.lastInsertRowid));
  } else {
    const values: (string | number | null)[] = [
      ids.get(r.domain) ?? null,
      r.source_id,
      r.status,
      r.started_at ?? null,
      r.completed_at ?? null,
    ];
    for (const name of SCORE_NAMES) values.push(r[name] ?? null);
    insertScan.run(...values);
  }
  rows++;
}
db.exec("commit");
db.close();
const seconds = (performance.now() - started) / 1000;
process.stdout.write(
  `${JSON.stringify({ rows, columns: scanColumns.length, seconds, rows_per_s: Math.round(rows / seconds) })}\n`,
);
