export type ImportFormat = "ndjson" | "csv";

/** Something to import: a named stream of NDJSON or CSV, or records an embedder already holds. */
export type ImportSource =
  | {
      /** Shown in reports: `name:line: what is wrong`. */
      name: string;
      format: ImportFormat;
      /** The bytes (UTF-8) or text, streamed; never read whole. */
      content: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;
      /**
       * Bytes of the source as stored read so far, for progress, where they differ from `content`'s (a compressed
       * file's, before decompression). Absent: `content`'s bytes are counted.
       */
      storedBytesRead?: () => number;
    }
  | {
      name: string;
      /** Record objects (as NDJSON lines would parse); line numbers count from 1. */
      records: AsyncIterable<unknown> | Iterable<unknown>;
    };

/** The format a file name implies: `.csv` (also `.csv.gz`) is CSV, anything else NDJSON. */
export function formatOfName(name: string): ImportFormat {
  return /\.csv(\.gz)?$/i.test(name) ? "csv" : "ndjson";
}
