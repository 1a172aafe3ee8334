/**
 * A small, bounded import benchmark: the seed generator's dataset of `--universities` (default 10,000) written as
 * NDJSON, then imported by `importFiles` into a new SQLite file, `--runs` times (default 3). Prints wall and CPU
 * seconds and rows/s per run; compare back-to-back runs of two trees on the same machine.
 *
 *   bun bench/import-small.ts [--universities N] [--runs N]
 */
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "../lib/index.ts";
import { importFiles } from "../lib/node/index.ts";
import { generateDataset } from "../lib/seed/index.ts";
import { openSqlite } from "../src/db/open.ts";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const universities = arg("universities", 10_000);
const runs = arg("runs", 3);

const dir = mkdtempSync(join(tmpdir(), "unirank-bench-import-"));
try {
  const file = join(dir, "dataset.ndjson");
  const out = createWriteStream(file);
  for (const r of generateDataset({ universities, seed: 42 })) {
    if (!out.write(`${JSON.stringify(r)}\n`)) await new Promise((ok) => out.once("drain", ok));
  }
  await new Promise<void>((ok, fail) => out.end((e?: Error | null) => (e ? fail(e) : ok())));
  for (let run = 1; run <= runs; run++) {
    const path = join(dir, `run-${run}.db`);
    const opened = openSqlite(path);
    await migrate(opened.db);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const result = await importFiles(opened.db, [file], { events: false });
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    await opened.close();
    rmSync(path, { force: true });
    if (!result.committed) throw new Error(`import refused the dataset: ${JSON.stringify(result.issues[0])}`);
    process.stdout.write(
      `${JSON.stringify({
        run,
        records: result.records,
        seconds: Number(seconds.toFixed(2)),
        cpu_seconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)),
        rows_per_s: Math.round(result.records / seconds),
      })}\n`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
