import type { DB, ExportSelection } from "../../lib/index.ts";
import type { ExportOutput } from "./output.ts";

/** What an export has written so far. */
export interface ExportCounts {
  universities: number;
  scans: number;
  /** Rows (lines) of the file: records, table rows or checks. */
  rows: number;
}

/** A format written as one stream (all but `sqlite`): reads `db` (a snapshot), writes `out`, counts. */
export type StreamFormat = (
  db: DB,
  selection: ExportSelection,
  out: ExportOutput,
  counts: ExportCounts,
  facts: Record<string, string>,
) => Promise<void>;
