import { isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";
import demoPath from "../data/demo.ndjson" with { type: "file" };
import { type DB, type IngestRecord, writeRecords } from "../lib/index.ts";

/**
 * Where the dataset is: absolute from source and inside the compiled binary (`/$bunfs/...`); a bundle
 * (`bun build` without `--compile`, the npm package's CLI) gets a path relative to itself, not to the cwd.
 */
const demoFile = isAbsolute(demoPath) ? demoPath : fileURLToPath(new URL(demoPath, import.meta.url));

/** Lines of the bundled synthetic demo dataset (embedded in the compiled binary). */
async function* demoRecords(): AsyncGenerator<IngestRecord> {
  const text = await Bun.file(demoFile).text();
  for (const line of text.split("\n")) if (line.trim()) yield JSON.parse(line) as IngestRecord;
}

/** Fills a new database with the bundled synthetic demo dataset. */
export async function loadDemo(db: DB): Promise<{ universities: number; scans: number }> {
  return writeRecords(db, demoRecords());
}
