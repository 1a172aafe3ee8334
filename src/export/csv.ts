import type { DB } from "../../lib/index.ts";
import {
  type CheckRow,
  checksOf,
  columnNames,
  EXPORT_CHECK_COLUMNS,
  EXPORT_SCAN_COLUMNS,
  EXPORT_UNIVERSITY_COLUMNS,
  type ExportColumn,
  type ExportSelection,
  latestBatches,
  scanBatches,
} from "../../lib/index.ts";
import { csvRows } from "../csv/rfc4180.ts";
import type { ExportOutput } from "./output.ts";
import type { ExportCounts } from "./stream-format.ts";

/** The cells of a row in the order of `columns`; a row's own `id` is the column `scan_id` or `university_id`. */
function cells(columns: readonly ExportColumn[], idColumn: string) {
  const names = columnNames(columns);
  return (row: Record<string, unknown>): unknown[] =>
    names.map((name) => (name === idColumn ? row.id : row[name]));
}

const header = (columns: readonly ExportColumn[]) => csvRows([columnNames(columns)]);

/** `csv`: one row per selected university with its latest completed scan (`EXPORT_UNIVERSITY_COLUMNS`). */
export async function writeUniversitiesCsv(
  db: DB,
  selection: ExportSelection,
  out: ExportOutput,
  counts: ExportCounts,
): Promise<void> {
  const row = cells(EXPORT_UNIVERSITY_COLUMNS, "university_id");
  await out.write(header(EXPORT_UNIVERSITY_COLUMNS));
  for await (const batch of latestBatches(db, selection)) {
    await out.write(csvRows(batch.map(row)));
    counts.universities += batch.length;
    counts.rows += batch.length;
  }
}

/** `scans-csv`: one row per selected scan (`EXPORT_SCAN_COLUMNS`). */
export async function writeScansCsv(
  db: DB,
  selection: ExportSelection,
  out: ExportOutput,
  counts: ExportCounts,
): Promise<void> {
  const row = cells(EXPORT_SCAN_COLUMNS, "scan_id");
  await out.write(header(EXPORT_SCAN_COLUMNS));
  for await (const batch of scanBatches(db, selection)) {
    await out.write(csvRows(batch.map(row)));
    counts.scans += batch.length;
    counts.rows += batch.length;
  }
}

/** `checks-csv`: one row per check of each selected scan's evidence (`EXPORT_CHECK_COLUMNS`). */
export async function writeChecksCsv(
  db: DB,
  selection: ExportSelection,
  out: ExportOutput,
  counts: ExportCounts,
): Promise<void> {
  const names = columnNames(EXPORT_CHECK_COLUMNS) as (keyof CheckRow)[];
  await out.write(header(EXPORT_CHECK_COLUMNS));
  for await (const batch of scanBatches(db, selection, { evidence: true, size: 250 })) {
    const rows = batch.flatMap(checksOf).map((c) => names.map((n) => c[n]));
    if (rows.length > 0) await out.write(csvRows(rows));
    counts.scans += batch.length;
    counts.rows += rows.length;
  }
}
