import { type ImportOptions, type ImportResult, importRecords } from "../import/import-records.ts";
import type { ImportFormat } from "../import/sources.ts";
import { fileSource } from "./file-source.ts";

/** `importRecords` over files (NDJSON or CSV by extension, `.gz` gunzipped), each streamed. */
export function importFiles(
  db: Parameters<typeof importRecords>[0],
  paths: readonly string[],
  options: ImportOptions & { format?: ImportFormat } = {},
): Promise<ImportResult> {
  return importRecords(
    db,
    paths.map((p) => fileSource(p, { format: options.format })),
    options,
  );
}
