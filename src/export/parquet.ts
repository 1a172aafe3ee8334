import { ByteWriter, ParquetWriter, type SchemaElement } from "hyparquet-writer";
import type { DB } from "../../lib/index.ts";
import {
  type ColumnType,
  columnNames,
  EXPORT_SCAN_COLUMNS,
  type ExportSelection,
  type ScanRow,
  scanBatches,
} from "../../lib/index.ts";
import type { ExportOutput } from "./output.ts";
import type { ExportCounts } from "./stream-format.ts";

/** Rows per row group: what is held in memory as columns (and as encoded bytes) before it is written out. */
const ROWS_PER_GROUP = 10_000;

const TYPES: Record<ColumnType, Omit<SchemaElement, "name">> = {
  integer: { type: "INT32" },
  number: { type: "DOUBLE" },
  text: { type: "BYTE_ARRAY", converted_type: "UTF8" },
  // Milliseconds since 1970 in UTC: readers show a timestamp (DuckDB TIMESTAMP, pandas datetime64).
  timestamp: { type: "INT64", converted_type: "TIMESTAMP_MILLIS" },
};

/** `2026-03-01 12:00:00` (UTC) or `2026-03-01T12:00:00+00:00` as a Date. */
const dateOf = (text: unknown): Date | null =>
  typeof text === "string" ? new Date(text.includes("T") ? text : `${text.replace(" ", "T")}Z`) : null;

/** A ByteWriter that hands what it holds to the export's output after each row group. */
class OutputWriter extends ByteWriter {
  constructor(private readonly out: ExportOutput) {
    super(1 << 20);
  }
  async flush(): Promise<void> {
    if (this.index === 0) return;
    const bytes = new Uint8Array(this.buffer.slice(0, this.index));
    this.index = 0;
    await this.out.write(bytes);
  }
  override finish(): Promise<void> {
    return this.flush();
  }
}

/**
 * `parquet`: the rows of `scans-csv` (`EXPORT_SCAN_COLUMNS`) as a Parquet file written by hyparquet-writer, in row groups
 * of `ROWS_PER_GROUP`, each written out as soon as it is encoded: memory holds one row group whatever the size.
 * Snappy-compressed column chunks; `facts` are the file's key-value metadata.
 */
export async function writeParquet(
  db: DB,
  selection: ExportSelection,
  out: ExportOutput,
  counts: ExportCounts,
  facts: Record<string, string>,
): Promise<void> {
  const names = columnNames(EXPORT_SCAN_COLUMNS);
  const schema: SchemaElement[] = [
    { name: "root", num_children: EXPORT_SCAN_COLUMNS.length },
    ...EXPORT_SCAN_COLUMNS.map((c) => ({
      name: c.name,
      ...TYPES[c.type],
      repetition_type: c.nullable ? ("OPTIONAL" as const) : ("REQUIRED" as const),
    })),
  ];
  const writer = new ParquetWriter({
    writer: new OutputWriter(out),
    schema,
    kvMetadata: Object.entries(facts).map(([key, value]) => ({ key, value })),
    createdBy: `unirank ${facts.unirank_version ?? ""}`.trim(),
  });
  const convert = EXPORT_SCAN_COLUMNS.map((c) =>
    c.name === "scan_id"
      ? (row: ScanRow) => row.id
      : c.type === "timestamp"
        ? (row: ScanRow) => dateOf(row[c.name as keyof ScanRow])
        : (row: ScanRow) => row[c.name as keyof ScanRow] ?? null,
  );
  let columns: unknown[][] = names.map(() => []);
  let held = 0;
  const writeGroup = async () => {
    if (held === 0) return;
    await writer.write({
      columnData: names.map((name, i) => ({ name, data: columns[i] as unknown[] })),
      rowGroupSize: held,
    });
    columns = names.map(() => []);
    held = 0;
  };
  for await (const batch of scanBatches(db, selection)) {
    for (const row of batch) {
      for (let i = 0; i < convert.length; i++) (columns[i] as unknown[]).push(convert[i]!(row));
    }
    held += batch.length;
    counts.scans += batch.length;
    counts.rows += batch.length;
    if (held >= ROWS_PER_GROUP) await writeGroup();
  }
  await writeGroup();
  await writer.finish();
}
