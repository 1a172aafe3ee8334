/**
 * Searching bytes for bytes. Node and Bun have a native memmem in `Buffer.prototype.indexOf`; elsewhere (a
 * browser) a first-byte scan with a compare does the same, more slowly. Feature-detected, so the core needs no
 * Node import.
 */

type IndexOf = (haystack: Uint8Array, needle: Uint8Array, from: number) => number;

interface BufferLike {
  from(
    data: ArrayBufferLike,
    offset: number,
    length: number,
  ): { indexOf(needle: Uint8Array, from: number): number };
}

const NativeBuffer = (globalThis as { Buffer?: BufferLike }).Buffer;

const portable: IndexOf = (haystack, needle, from) => {
  const first = needle[0];
  if (first === undefined) return from <= haystack.length ? from : -1;
  const last = haystack.length - needle.length;
  for (let p = haystack.indexOf(first, from); p !== -1 && p <= last; p = haystack.indexOf(first, p + 1)) {
    let i = 1;
    while (i < needle.length && haystack[p + i] === needle[i]) i++;
    if (i === needle.length) return p;
  }
  return -1;
};

/** A byte array whose `indexOf(needle, from)` finds a byte sequence (native where the runtime has one). */
export interface ByteText {
  bytes: Uint8Array;
  indexOf(needle: Uint8Array, from?: number): number;
}

export function byteText(bytes: Uint8Array): ByteText {
  if (NativeBuffer) {
    const view = NativeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return { bytes, indexOf: (needle, from = 0) => view.indexOf(needle, from) };
  }
  return { bytes, indexOf: (needle, from = 0) => portable(bytes, needle, from) };
}

/** The portable search, exported for tests. */
export const portableIndexOf = portable;
