import { isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";
import demoPath from "../data/demo.ndjson" with { type: "file" };
import { type DB, formatIssue, importRecords } from "../lib/index.ts";

/**
 * Where the dataset is: absolute from source and inside the compiled binary (`/$bunfs/...`); a bundle
 * (`bun build` without `--compile`, the npm package's CLI) gets a path relative to itself, not to the cwd.
 */
const demoFile = isAbsolute(demoPath) ? demoPath : fileURLToPath(new URL(demoPath, import.meta.url));

/** Fills a new database with the bundled synthetic demo dataset, through the import (validated, one transaction). */
export async function loadDemo(db: DB): Promise<{ universities: number; scans: number }> {
  const content = Bun.file(demoFile).stream() as unknown as AsyncIterable<Uint8Array>;
  const result = await importRecords(db, [{ name: "demo.ndjson", format: "ndjson", content }]);
  if (!result.committed) throw new Error(`demo data rejected: ${result.issues.map(formatIssue).join("; ")}`);
  return {
    universities: result.universities.inserted + result.universities.unchanged,
    scans: result.scans.inserted + result.scans.unchanged,
  };
}
