import { readFileSync } from "node:fs";

/**
 * A WAL's last frame and how far it was copied into its file, read from the shared-memory WAL index without a
 * connection (SQLite's file format, *The WAL-Index Format*: `mxFrame` at byte 16 of the header, `nBackfill` at
 * byte 96 after the header's two copies; native byte order, little-endian here).
 */
export function walIndex(file: string): { mxFrame: number; nBackfill: number } {
  const shm = readFileSync(`${file}-shm`);
  return { mxFrame: shm.readUInt32LE(16), nBackfill: shm.readUInt32LE(96) };
}

/** Every frame the WAL holds is copied into the file (or it was started again), and it holds some. */
export function walCheckpointed(file: string): boolean {
  const { mxFrame, nBackfill } = walIndex(file);
  return mxFrame === 0 || nBackfill === mxFrame;
}
