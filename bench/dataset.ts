/**
 * Child of the benchmark: streams `generateDataset` (the generator of `unirank seed`) to an NDJSON file
 * and prints one JSON line of figures. Never holds more than one record and the writer's buffer.
 *
 *   bun bench/dataset.ts OUT.ndjson UNIVERSITIES SCANS_PER_UNIVERSITY
 */
import { generateDataset } from "../lib/seed/generate.ts";

const [out, universitiesArg, perArg] = process.argv.slice(2);
if (!out || !universitiesArg || !perArg)
  throw new Error("usage: dataset.ts OUT UNIVERSITIES SCANS_PER_UNIVERSITY");

const started = performance.now();
const writer = Bun.file(out).writer({ highWaterMark: 1 << 20 });
const counts = { universities: 0, completed_scans: 0, other_scans: 0 };
let bytes = 0;
for (const record of generateDataset({
  universities: Number(universitiesArg),
  scansPerUniversity: Number(perArg),
})) {
  const line = `${JSON.stringify(record)}\n`;
  bytes += line.length;
  writer.write(line);
  if (record.type === "university") counts.universities++;
  else if (record.status === "completed") counts.completed_scans++;
  else counts.other_scans++;
}
await writer.end();
const seconds = (performance.now() - started) / 1000;
const records = counts.universities + counts.completed_scans + counts.other_scans;
process.stdout.write(
  `${JSON.stringify({ ...counts, records, bytes, seconds, records_per_s: Math.round(records / seconds) })}\n`,
);
