/**
 * Where every three-byte sequence of a text occurs: for each trigram (three bytes, none of them the separator),
 * its byte offsets in ascending order. A key of three bytes or more is then found by walking the offsets of its
 * rarest trigram and comparing the key in place, so a search costs what that trigram's frequency costs instead
 * of a pass over the whole text. Exact: every occurrence of the key contains each of its trigrams, and each
 * candidate is compared byte for byte. Keys shorter than a trigram are the caller's to search otherwise.
 */
export interface TrigramPositions {
  /** Trigram (`b0 << 16 | b1 << 8 | b2`) → its slot. */
  slots: Map<number, number>;
  /** Slot → index of its first offset in `positions`; one more entry than slots. */
  starts: Int32Array;
  /** Byte offsets, grouped by slot, ascending within each group. */
  positions: Int32Array;
}

export const TRIGRAM = 3;

const code = (bytes: Uint8Array, p: number) =>
  ((bytes[p] as number) << 16) | ((bytes[p + 1] as number) << 8) | (bytes[p + 2] as number);

/** The positions of every trigram of `bytes` that does not hold the byte `separator`. */
export function trigramPositions(bytes: Uint8Array, separator = 0): TrigramPositions {
  const slots = new Map<number, number>();
  const counts: number[] = [];
  const end = bytes.length - TRIGRAM;
  let total = 0;
  // Pass 1: a slot and a count per trigram.
  for (let p = 0; p <= end; p++) {
    if (bytes[p + 2] === separator) {
      p += 2; // the next two trigrams hold it too
      continue;
    }
    if (bytes[p] === separator || bytes[p + 1] === separator) continue;
    const c = code(bytes, p);
    const slot = slots.get(c);
    if (slot === undefined) {
      slots.set(c, counts.length);
      counts.push(1);
    } else counts[slot] = (counts[slot] as number) + 1;
    total++;
  }
  const starts = new Int32Array(counts.length + 1);
  for (let s = 0; s < counts.length; s++) starts[s + 1] = (starts[s] as number) + (counts[s] as number);
  // Pass 2: offsets into their groups, in text order.
  const fill = starts.slice(0, counts.length);
  const positions = new Int32Array(total);
  for (let p = 0; p <= end; p++) {
    if (bytes[p + 2] === separator) {
      p += 2;
      continue;
    }
    if (bytes[p] === separator || bytes[p + 1] === separator) continue;
    const slot = slots.get(code(bytes, p)) as number;
    positions[fill[slot] as number] = p;
    fill[slot] = (fill[slot] as number) + 1;
  }
  return { slots, starts, positions };
}

/**
 * The offsets of the rarest trigram of `key` (at least three bytes) and that trigram's place in the key:
 * every occurrence of `key` starts at one of `positions[from..to) - shift`. Null when some trigram of the key
 * never occurs (the key does not either).
 */
export function rarestTrigram(
  index: TrigramPositions,
  key: Uint8Array,
): { from: number; to: number; shift: number } | null {
  let best: { from: number; to: number; shift: number } | null = null;
  for (let j = 0; j + TRIGRAM <= key.length; j++) {
    const slot = index.slots.get(code(key, j));
    if (slot === undefined) return null;
    const from = index.starts[slot] as number;
    const to = index.starts[slot + 1] as number;
    if (best === null || to - from < best.to - best.from) best = { from, to, shift: j };
  }
  return best;
}
