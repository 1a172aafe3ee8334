import type { Clock, DB, ExportSelection } from "../../lib/index.ts";
import { inReadSnapshot, isoTimestamp, readGeneration } from "../../lib/index.ts";
import { writeChecksCsv, writeScansCsv, writeUniversitiesCsv } from "./csv.ts";
import type { ExportFormat } from "./formats.ts";
import { writeNdjson } from "./ndjson.ts";
import { type ExportOutput, isGzipName, openOutput, STDOUT } from "./output.ts";
import { writeParquet } from "./parquet.ts";
import { writeSqliteSnapshot } from "./sqlite.ts";
import type { ExportCounts, StreamFormat } from "./stream-format.ts";

const STREAMS: Record<Exclude<ExportFormat, "sqlite">, StreamFormat> = {
  ndjson: writeNdjson,
  csv: writeUniversitiesCsv,
  "scans-csv": writeScansCsv,
  "checks-csv": writeChecksCsv,
  parquet: writeParquet,
};

/**
 * Rows between full collections of garbage: an export makes garbage faster than the runtime collects it by
 * itself, and the resident size would follow it (docs/performance.md).
 */
const ROWS_PER_COLLECTION = 10_000;

/** Calls `collect` whenever another `ROWS_PER_COLLECTION` rows have been counted since the last call. */
function collector(counts: ExportCounts, collect: () => void): () => void {
  let at = 0;
  return () => {
    if (counts.rows - at < ROWS_PER_COLLECTION) return;
    at = counts.rows;
    collect();
  };
}

export interface ExportOptions {
  format: ExportFormat;
  /** A file, or `-` for standard output; `.gz` gzips the text formats. */
  path: string;
  selection?: ExportSelection;
  /** unirank's version, recorded with the snapshot's facts. */
  version: string;
  clock?: Clock;
  /** Counts kept up to date while the export runs (a caller may read them for progress). */
  counts?: ExportCounts;
  /** A full garbage collection (the CLI's `collectGarbage`), run every `ROWS_PER_COLLECTION` rows. */
  collect?: () => void;
}

export interface ExportSummary extends ExportCounts {
  format: ExportFormat;
  /** The data generation of the snapshot read. */
  generation: number;
  /** Bytes written before compression (0 for `sqlite`). */
  bytes: number;
  seconds: number;
}

/** Why a format cannot go where it was asked to, or null. */
export function placementProblem(format: ExportFormat, path: string): string | null {
  if (format === "sqlite" && path === STDOUT) return "a sqlite export needs a file name, not -";
  if ((format === "sqlite" || format === "parquet") && isGzipName(path))
    return `a ${format} file is compressed inside; give it a name without .gz`;
  return null;
}

/**
 * Writes one consistent snapshot of the selected data in `format` (docs/research.md): every read happens in one
 * read-only transaction, so rows written meanwhile are either all in or all out, and writers are not held up.
 */
export async function runExport(db: DB, options: ExportOptions): Promise<ExportSummary> {
  const started = performance.now();
  const { format, path } = options;
  const selection = options.selection ?? {};
  const problem = placementProblem(format, path);
  if (problem) throw new Error(problem);
  const counts: ExportCounts = options.counts ?? { universities: 0, scans: 0, rows: 0 };
  let generation = 0;
  const factsOf = async (snapshot: DB): Promise<Record<string, string>> => {
    generation = await readGeneration(snapshot);
    return {
      unirank_version: options.version,
      unirank_generation: String(generation),
      unirank_exported_at: isoTimestamp((options.clock ?? (() => new Date()))()),
      unirank_selection: JSON.stringify(selection),
    };
  };
  let bytes = 0;
  const maybeCollect = collector(counts, options.collect ?? (() => {}));
  if (format === "sqlite") {
    await writeSqliteSnapshot(db, path, selection, factsOf, (c) => {
      counts.universities = c.universities;
      counts.scans = c.scans;
      counts.rows = c.universities + c.scans;
      maybeCollect();
    });
  } else {
    const file = openOutput(path);
    // Every write follows a batch (a row group for Parquet): the place to collect the batch's garbage.
    const out: ExportOutput = {
      write: async (chunk) => {
        await file.write(chunk);
        maybeCollect();
      },
      close: () => file.close(),
      abort: () => file.abort(),
      get bytes() {
        return file.bytes;
      },
    };
    try {
      await inReadSnapshot(db, async (snapshot) => {
        await STREAMS[format](snapshot, selection, out, counts, await factsOf(snapshot));
      });
      await out.close();
    } catch (e) {
      await out.abort();
      throw e;
    }
    bytes = out.bytes;
  }
  return { ...counts, format, generation, bytes, seconds: (performance.now() - started) / 1000 };
}
