/**
 * Child of the benchmark, used only while `unirank import` is not available: loads the NDJSON dataset with
 * the trusted batch writer of `unirank seed` (`writeRecords`), streamed.
 *
 *   bun bench/write-db.ts DATASET.ndjson OUT.db
 */
import { type IngestRecord, migrate, writeRecords } from "../lib/index.ts";
import { openSqlite } from "../src/db/open.ts";
import { readNdjson } from "./ndjson.ts";

const [input, out] = process.argv.slice(2);
if (!input || !out) throw new Error("usage: write-db.ts DATASET.ndjson OUT.db");
const started = performance.now();
const opened = openSqlite(out);
await migrate(opened.db);
const summary = await writeRecords(opened.db, readNdjson<IngestRecord>(input));
await opened.close();
const seconds = (performance.now() - started) / 1000;
const rows = summary.universities + summary.scans;
process.stdout.write(`${JSON.stringify({ rows, seconds, rows_per_s: Math.round(rows / seconds) })}\n`);
