import { createReadStream } from "node:fs";
import { basename } from "node:path";
import { createGunzip } from "node:zlib";
import { formatOfName, type ImportFormat, type ImportSource } from "../import/sources.ts";

/** A file as an import source, streamed (gunzipped when it ends in `.gz`). */
export function fileSource(
  path: string,
  options: { format?: ImportFormat; name?: string } = {},
): ImportSource {
  const name = options.name ?? path;
  const format = options.format ?? formatOfName(path);
  if (!/\.gz$/i.test(path)) return { name, format, content: fileContent(path) };
  // A `.gz` inflates to more bytes than the file holds: its progress counts the file's own bytes read.
  const read = { bytes: 0 };
  return { name, format, content: gunzippedContent(path, read), storedBytesRead: () => read.bytes };
}

/** A file's bytes, opened when the reader starts. */
async function* fileContent(path: string): AsyncGenerator<Uint8Array> {
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) yield chunk as Uint8Array;
}

/**
 * A `.gz` file's bytes, gunzipped, opened when the reader starts; `read.bytes` counts the file's bytes read. A
 * corrupt or truncated `.gz` fails the reader's loop (reported as `file:line`): the streams are only made once a
 * loop listens to them, since a gunzip failing before that would be an unhandled error.
 */
async function* gunzippedContent(path: string, read: { bytes: number }): AsyncGenerator<Uint8Array> {
  const file = createReadStream(path, { highWaterMark: 256 * 1024 });
  const gunzip = createGunzip();
  file.on("data", (chunk) => {
    read.bytes += (chunk as Uint8Array).byteLength;
  });
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
