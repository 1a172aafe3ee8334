import { createWriteStream, renameSync, rmSync } from "node:fs";
import type { Writable } from "node:stream";
import { createGzip } from "node:zlib";

/**
 * Where an export writes: a file (gzipped when its name ends in `.gz`) or standard output (`-`). A file is written
 * under a temporary name beside it and renamed once complete, so a failed or interrupted export leaves no
 * half-written file (and an existing file of that name untouched until the new one is whole).
 */
export interface ExportOutput {
  /** Writes text (UTF-8) or bytes; resolves when the stream can take more. */
  write(chunk: string | Uint8Array): Promise<void>;
  /** Flushes and, for a file, moves it into place. */
  close(): Promise<void>;
  /** Drops what was written (a file's temporary copy). */
  abort(): Promise<void>;
  /** Bytes handed to `write` (before compression). */
  readonly bytes: number;
}

export const STDOUT = "-";

export const isGzipName = (path: string): boolean => /\.gz$/i.test(path);

/** A temporary name beside `path`, unique to this process. */
export const partialName = (path: string): string => `${path}.partial-${process.pid}`;

function drained(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      stream.off("error", fail);
      resolve();
    };
    const fail = (e: Error) => {
      stream.off("drain", done);
      reject(e);
    };
    stream.once("drain", done);
    stream.once("error", fail);
  });
}

function finished(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.once("finish", resolve);
    stream.once("error", reject);
    stream.end();
  });
}

/** An output writing to `stream`, counting bytes, waiting for it to drain. */
function streamOutput(stream: Writable, ends: Pick<ExportOutput, "close" | "abort">): ExportOutput {
  let bytes = 0;
  return {
    get bytes() {
      return bytes;
    },
    async write(chunk) {
      bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;
      if (!stream.write(chunk)) await drained(stream);
    },
    ...ends,
  };
}

export function openOutput(path: string): ExportOutput {
  if (path === STDOUT) return streamOutput(process.stdout, { close: async () => {}, abort: async () => {} });
  const temporary = partialName(path);
  const file = createWriteStream(temporary, { highWaterMark: 1 << 20 });
  const gzip = isGzipName(path) ? createGzip({ level: 6 }) : null;
  // A failure of the file (disk full) reaches the writer through the stream it writes to.
  if (gzip) {
    gzip.pipe(file);
    file.on("error", (e) => gzip.destroy(e));
  }
  const head: Writable = gzip ?? file;
  const fileClosed = new Promise<void>((resolve, reject) => {
    file.once("close", resolve);
    file.once("error", reject);
  });
  fileClosed.catch(() => {});
  return streamOutput(head, {
    async close() {
      await finished(head);
      await fileClosed;
      renameSync(temporary, path);
    },
    async abort() {
      head.destroy();
      file.destroy();
      rmSync(temporary, { force: true });
    },
  });
}
