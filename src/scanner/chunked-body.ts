/**
 * HTTP/1.1 chunked transfer coding (RFC 9112 §7.1), read in one pass: `ChunkedEnd` finds where a chunked body ends
 * as its bytes arrive (each byte looked at once, nothing copied), `dechunk` joins the chunks' data into one buffer.
 * A body of a million 1-byte chunks costs what its bytes cost, not a copy of the whole per chunk.
 */

enum Phase {
  Size,
  Extension,
  Data,
  DataEnd,
  Trailer,
  Done,
}

const MAX_SIZE_DIGITS = 15;

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  return -1;
}

/** Follows a chunked body fed piece by piece; `done` once its last chunk and trailer (or garbage) arrived. */
export class ChunkedEnd {
  private phase = Phase.Size;
  private size = 0;
  private digits = 0;
  private remaining = 0;
  private lineLength = 0;

  get done(): boolean {
    return this.phase === Phase.Done;
  }

  /** Reads `data` from `start`; returns true once the body is complete (malformed framing ends it too). */
  feed(data: Uint8Array, start = 0): boolean {
    let i = start;
    while (i < data.length && this.phase !== Phase.Done) {
      if (this.phase === Phase.Data) {
        const take = Math.min(this.remaining, data.length - i);
        this.remaining -= take;
        i += take;
        if (this.remaining === 0) this.phase = Phase.DataEnd;
        continue;
      }
      const byte = data[i++] as number;
      switch (this.phase) {
        case Phase.Size: {
          if (byte === 0x0a) this.endSizeLine();
          else if (byte === 0x0d || byte === 0x20 || byte === 0x09) {
            // CR, or whitespace before an extension.
          } else if (byte === 0x3b) this.phase = Phase.Extension;
          else {
            const v = hexValue(byte);
            if (v < 0 || ++this.digits > MAX_SIZE_DIGITS) this.phase = Phase.Done;
            else this.size = this.size * 16 + v;
          }
          break;
        }
        case Phase.Extension:
          if (byte === 0x0a) this.endSizeLine();
          break;
        case Phase.DataEnd:
          if (byte === 0x0a) this.startSize();
          break;
        case Phase.Trailer:
          if (byte === 0x0a) {
            if (this.lineLength === 0) this.phase = Phase.Done;
            this.lineLength = 0;
          } else if (byte !== 0x0d) this.lineLength++;
          break;
      }
    }
    return this.phase === Phase.Done;
  }

  private endSizeLine(): void {
    if (this.digits === 0) this.phase = Phase.Done;
    else if (this.size === 0) {
      this.phase = Phase.Trailer;
      this.lineLength = 0;
    } else {
      this.phase = Phase.Data;
      this.remaining = this.size;
    }
  }

  private startSize(): void {
    this.phase = Phase.Size;
    this.size = 0;
    this.digits = 0;
  }
}

/** The data of a chunked body (what arrived of it), at most `max` bytes, copied once into one buffer. */
export function dechunk(data: Buffer, max = Number.POSITIVE_INFINITY): Buffer {
  const out = Buffer.allocUnsafe(Math.min(data.length, max));
  let length = 0;
  let at = 0;
  while (at < data.length && length < out.length) {
    const lineEnd = data.indexOf(0x0a, at);
    if (lineEnd < 0) break;
    const line = data.toString("latin1", at, lineEnd);
    const size = Number.parseInt(line.split(";")[0]?.trim() ?? "", 16);
    if (!Number.isFinite(size) || size <= 0) break;
    const start = lineEnd + 1;
    length += data.copy(out, length, start, Math.min(start + size, data.length));
    at = start + size;
    // The CRLF after the data.
    if (data[at] === 0x0d) at++;
    if (data[at] === 0x0a) at++;
  }
  return out.subarray(0, length);
}
