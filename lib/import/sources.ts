import { createReadStream } from "node:fs";
import { basename } from "node:path";
import { createGunzip } from "node:zlib";

export type ImportFormat = "ndjson" | "csv";

/** Something to import: a named stream of NDJSON or CSV, or records an embedder already holds. */
export type ImportSource =
  | {
      /** Shown in reports: `name:line: what is wrong`. */
      name: string;
      format: ImportFormat;
      /** The bytes (UTF-8) or text, streamed; never read whole. */
      content: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;
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

/** A file as an import source, streamed (gunzipped when it ends in `.gz`). */
export function fileSource(
  path: string,
  options: { format?: ImportFormat; name?: string } = {},
): ImportSource {
  return {
    name: options.name ?? path,
    format: options.format ?? formatOfName(path),
    content: fileContent(path),
  };
}

/**
 * A file's bytes, gunzipped for `.gz`, opened when the reader starts. A corrupt or truncated `.gz` fails the
 * reader's loop (reported as `file:line`): the streams are only made once a loop listens to them, since a gunzip
 * failing before that would be an unhandled error.
 */
async function* fileContent(path: string): AsyncGenerator<Uint8Array> {
  const file = createReadStream(path, { highWaterMark: 256 * 1024 });
  if (!/\.gz$/i.test(path)) {
    for await (const chunk of file) yield chunk as Uint8Array;
    return;
  }
  const gunzip = createGunzip();
  file.on("error", (e) => gunzip.destroy(e));
  file.pipe(gunzip);
  try {
    for await (const chunk of gunzip) yield chunk as Uint8Array;
  } finally {
    file.destroy();
    gunzip.destroy();
  }
}

export const sourceLabel = (path: string): string => basename(path);
