/**
 * Serving while importing: a `unirank serve` process on a fresh file, and `unirank import` of a generated file of
 * ROWS records (1,000,000 by default: 1 university for 9 scans) into the same file; prints p50/p99/max of `/health`,
 * a v1 and a v2 read made in turn by two loops until the import ends, and every failed request.
 * `bun bench/import-while-serving.ts [ROWS]`
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importWhileServing } from "../test/support/import-while-serving.ts";
import { writeScanFile } from "../test/support/scan-file.ts";

const rows = Number(process.argv[2] ?? 1_000_000);
if (!Number.isInteger(rows) || rows < 10)
  throw new Error("usage: bun bench/import-while-serving.ts [ROWS ≥ 10]");
const universities = Math.max(1, Math.round(rows / 10));
const scansPer = Math.max(1, Math.round((rows - universities) / universities));
const dir = mkdtempSync(join(tmpdir(), "unirank-bench-iws-"));
try {
  const file = join(dir, "import.ndjson");
  const scans = await writeScanFile(file, universities, scansPer);
  console.log(`import of ${universities + scans} records (${universities} universities) while serving ...`);
  const r = await importWhileServing({ dbPath: join(dir, "served.db"), importFile: file });
  console.log(`import: exit ${r.importExitCode} in ${r.importSeconds} s`);
  for (const [name, f] of Object.entries(r.probes)) {
    console.log(
      `${name.padEnd(6)} ${String(f.requests).padStart(7)} requests  p50 ${f.p50Ms} ms  p99 ${f.p99Ms} ms  max ${f.maxMs} ms  failed ${f.failures.length}`,
    );
  }
  if (r.importExitCode !== 0) console.log(r.importStderr);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
