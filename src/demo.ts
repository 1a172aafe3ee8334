import demoPath from "../data/demo.ndjson" with { type: "file" };
import { type DB, type IngestRecord, writeRecords } from "../lib/index.ts";

/** Lines of the bundled synthetic demo dataset (embedded in the compiled binary). */
async function* demoRecords(): AsyncGenerator<IngestRecord> {
  const text = await Bun.file(demoPath).text();
  for (const line of text.split("\n")) if (line.trim()) yield JSON.parse(line) as IngestRecord;
}

/** Fills a new database with the bundled synthetic demo dataset. */
export async function loadDemo(db: DB): Promise<{ universities: number; scans: number }> {
  return writeRecords(db, demoRecords());
}
