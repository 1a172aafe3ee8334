import type { DB } from "../../lib/index.ts";
import {
  type ExportSelection,
  scanBatches,
  scanLine,
  universityBatches,
  universityLine,
} from "../../lib/index.ts";
import type { ExportOutput } from "./output.ts";
import type { ExportCounts } from "./stream-format.ts";

/** Evidence may take 64 KiB a scan: smaller batches keep the one held in memory small. */
const SCANS_PER_BATCH = 250;

/** The import format: every selected university (by id), then every selected scan (by id) with its evidence. */
export async function writeNdjson(
  db: DB,
  selection: ExportSelection,
  out: ExportOutput,
  counts: ExportCounts,
): Promise<void> {
  for await (const batch of universityBatches(db, selection)) {
    let text = "";
    for (const u of batch) text += `${universityLine(u)}\n`;
    await out.write(text);
    counts.universities += batch.length;
    counts.rows += batch.length;
  }
  for await (const batch of scanBatches(db, selection, { evidence: true, size: SCANS_PER_BATCH })) {
    let text = "";
    for (const s of batch) text += `${scanLine(s)}\n`;
    await out.write(text);
    counts.scans += batch.length;
    counts.rows += batch.length;
  }
}
