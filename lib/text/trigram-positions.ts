/**
 * Where every three-byte sequence of a text occurs: for each trigram (three bytes, none of them the separator),
 * its byte offsets in ascending order. A key of three bytes or more is then found by walking the offsets of its
 * rarest trigram and comparing the key in place, so a search costs what that trigram's frequency costs instead
 * of a pass over the whole text. Exact: every occurrence of the key contains each of its trigrams, and each
 * candidate is compared byte for byte. Keys shorter than a trigram are the caller's to search otherwise.
 *
 * Each trigram's offsets are kept as the differences between neighbours, seven bits a byte (LEB128): about
 * 1.3 bytes an offset instead of 4 (measured in docs/performance.md).
 */
export interface TrigramPositions {
  /** Trigram (`b0 << 16 | b1 << 8 | b2`) → its slot. */
  slots: Map<number, number>;
  /** Slot → number of offsets. */
  counts: Int32Array;
  /** Slot → index of its first byte in `deltas`; one more entry than slots. */
  starts: Int32Array;
  /** Per slot, its ascending offsets as LEB128 differences (the first from 0). */
  deltas: Uint8Array;
}

/** The offsets of one trigram: `count` of them, encoded in `deltas[from..to)`. */
export interface TrigramList {
  from: number;
  to: number;
  count: number;
}

export const TRIGRAM = 3;

const code = (bytes: Uint8Array, p: number) =>
  ((bytes[p] as number) << 16) | ((bytes[p + 1] as number) << 8) | (bytes[p + 2] as number);

const varintLength = (n: number) =>
  n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;

/** Calls `visit(p, code)` for each offset of a trigram without the separator, in text order. */
function eachTrigram(bytes: Uint8Array, separator: number, visit: (p: number, c: number) => void): void {
  const end = bytes.length - TRIGRAM;
  for (let p = 0; p <= end; p++) {
    if (bytes[p + 2] === separator) {
      p += 2; // the next two trigrams hold it too
      continue;
    }
    if (bytes[p] === separator || bytes[p + 1] === separator) continue;
    visit(p, code(bytes, p));
  }
}

/** The positions of every trigram of `bytes` that does not hold the byte `separator`. */
export function trigramPositions(bytes: Uint8Array, separator = 0): TrigramPositions {
  const slots = new Map<number, number>();
  let counts = new Int32Array(1024);
  let sizes = new Int32Array(1024);
  let last = new Int32Array(1024);
  // Pass 1: a slot per trigram, its count and the bytes its differences take.
  eachTrigram(bytes, separator, (p, c) => {
    let slot = slots.get(c);
    if (slot === undefined) {
      slot = slots.size;
      slots.set(c, slot);
      if (slot >= counts.length) {
        const grow = <A extends Int32Array>(a: A) => {
          const g = new Int32Array(a.length * 2);
          g.set(a);
          return g;
        };
        counts = grow(counts);
        sizes = grow(sizes);
        last = grow(last);
      }
    }
    counts[slot] = (counts[slot] as number) + 1;
    sizes[slot] = (sizes[slot] as number) + varintLength(p - (last[slot] as number));
    last[slot] = p;
  });
  const n = slots.size;
  const starts = new Int32Array(n + 1);
  for (let s = 0; s < n; s++) starts[s + 1] = (starts[s] as number) + (sizes[s] as number);
  // Pass 2: the differences, in text order.
  const deltas = new Uint8Array(starts[n] as number);
  const at = starts.slice(0, n);
  last.fill(0);
  eachTrigram(bytes, separator, (p, c) => {
    const slot = slots.get(c) as number;
    let d = p - (last[slot] as number);
    last[slot] = p;
    let w = at[slot] as number;
    while (d >= 0x80) {
      deltas[w++] = (d & 0x7f) | 0x80;
      d >>>= 7;
    }
    deltas[w++] = d;
    at[slot] = w;
  });
  return { slots, counts: counts.slice(0, n), starts, deltas };
}

/**
 * The offsets of the rarest trigram of `key` (at least three bytes) and that trigram's place in the key: every
 * occurrence of `key` starts at one of those offsets minus `shift`. Null when some trigram of the key never
 * occurs (the key does not either).
 */
export function rarestTrigram(
  index: TrigramPositions,
  key: Uint8Array,
): { list: TrigramList; shift: number } | null {
  let best: { list: TrigramList; shift: number } | null = null;
  for (let j = 0; j + TRIGRAM <= key.length; j++) {
    const slot = index.slots.get(code(key, j));
    if (slot === undefined) return null;
    const count = index.counts[slot] as number;
    if (best === null || count < best.list.count) {
      best = {
        list: { from: index.starts[slot] as number, to: index.starts[slot + 1] as number, count },
        shift: j,
      };
    }
  }
  return best;
}
