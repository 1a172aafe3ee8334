import { createReadStream } from "node:fs";
import { basename } from "node:path";
import { createGunzip } from "node:zlib";
import { formatOfName, type ImportFormat, type ImportSource } from "../import/sources.ts";

/** A file as an import source, streamed (gunzipped when it ends in `.gz`). */
export function fileSource(
  path: string,
  options: { format?: ImportFormat; name?: string } = {},
): ImportSource {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  return {
    name: options.name ?? path,
    format: options.format ?? formatOfName(path),
    content: /\.gz$/i.test(path) ? stream.pipe(createGunzip()) : stream,
  };
}

export const sourceLabel = (path: string): string => basename(path);
