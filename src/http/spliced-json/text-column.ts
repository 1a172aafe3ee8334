import { type PatchRun, patchById, patchedLength } from "../../../lib/queries/patch-runs.ts";

/**
 * Columns of short texts and numbers by slot, a slot being a university's index in an ascending array of ids: what
 * the spliced answers are made of. Texts are kept as runs of a few long strings (no object per text for the
 * collector to trace), and a patch copies the slots that stay and appends the new texts in chunks of their own.
 */

/** One short text per slot, each a run of one of a few long strings. */
export interface TextColumn {
  chunks: string[];
  chunk: Uint16Array;
  start: Int32Array;
  end: Int32Array;
}

export const textAt = (column: TextColumn, slot: number): string => textWithin(column, slot, 0, 0);

/** A slot's text without its first `head` and last `tail` characters, cut from its chunk at once. */
export function textWithin(column: TextColumn, slot: number, head: number, tail: number): string {
  const chunk = column.chunks[column.chunk[slot]!] as string;
  return chunk.slice((column.start[slot] as number) + head, (column.end[slot] as number) - tail);
}

/** A slot's first `length` characters (fewer where its text is shorter), cut from its chunk at once. */
export function textHead(column: TextColumn, slot: number, length: number): string {
  const chunk = column.chunks[column.chunk[slot]!] as string;
  const start = column.start[slot] as number;
  return chunk.slice(start, Math.min(start + length, column.end[slot] as number));
}

/** Texts per chunk: a chunk is joined as soon as it is full, so the short texts become garbage as they come. */
const TEXTS_PER_CHUNK = 256;
/**
 * Chunks a column of `slots` texts may have before a patch builds afresh instead: about twice a build's, and a
 * thousand small ones of patches (their superseded texts stay in the old chunks until then); `chunk` is 16 bits.
 */
export const patchableChunks = (slots: number): number =>
  Math.min(65_000, 2 * Math.ceil(slots / TEXTS_PER_CHUNK) + 1_024);
/** Anything beyond Latin-1 makes a JavaScript string two bytes a character, so such texts get chunks of their own. */
const WIDE = /[\u0100-\uffff]/;

interface OpenChunk {
  id: number;
  parts: string[];
  length: number;
}

/** `array` with room for at least `size` elements: itself, or a copy twice as long. */
export function room<A extends Uint8Array | Uint16Array | Int32Array | Uint32Array>(
  array: A,
  size: number,
): A {
  if (size <= array.length) return array;
  const grown = new (array.constructor as new (n: number) => A)(Math.max(size, array.length * 2));
  grown.set(array);
  return grown;
}

/** Where each slot's text lies (its chunk, start and end), grown as slots are set: what a column builder fills. */
export class SlotSpans {
  #chunk = new Uint16Array(1024);
  #start = new Int32Array(1024);
  #end = new Int32Array(1024);
  place(slot: number, chunk: number, start: number, end: number): void {
    this.#chunk = room(this.#chunk, slot + 1);
    this.#start = room(this.#start, slot + 1);
    this.#end = room(this.#end, slot + 1);
    this.#chunk[slot] = chunk;
    this.#start[slot] = start;
    this.#end[slot] = end;
  }
  /** The spans of the first `count` slots. */
  build(count: number): { chunk: Uint16Array; start: Int32Array; end: Int32Array } {
    return {
      chunk: this.#chunk.slice(0, count),
      start: this.#start.slice(0, count),
      end: this.#end.slice(0, count),
    };
  }
}

export class TextColumnBuilder {
  readonly #chunks: string[] = [];
  readonly #open: { narrow?: OpenChunk; wide?: OpenChunk } = {};
  readonly #spans = new SlotSpans();
  set(slot: number, text: string): void {
    const kind = WIDE.test(text) ? "wide" : "narrow";
    let open = this.#open[kind];
    if (open === undefined) {
      open = { id: this.#chunks.length, parts: [], length: 0 };
      this.#chunks.push("");
      this.#open[kind] = open;
    }
    this.#spans.place(slot, open.id, open.length, open.length + text.length);
    open.length += text.length;
    open.parts.push(text);
    if (open.parts.length >= TEXTS_PER_CHUNK) this.#close(kind);
  }
  #close(kind: "narrow" | "wide"): void {
    const open = this.#open[kind];
    if (open === undefined) return;
    this.#chunks[open.id] = open.parts.join("");
    this.#open[kind] = undefined;
  }
  build(count: number): TextColumn {
    this.#close("narrow");
    this.#close("wide");
    return { chunks: this.#chunks, ...this.#spans.build(count) };
  }
}

/** `old` with `runs` applied: its slots copied where they go, `added`'s texts in chunks after its own. */
export function mergedColumn(
  old: TextColumn,
  added: TextColumn,
  runs: readonly PatchRun[],
  n: number,
): TextColumn {
  const column: TextColumn = {
    chunks: [...old.chunks, ...added.chunks],
    chunk: new Uint16Array(n),
    start: new Int32Array(n),
    end: new Int32Array(n),
  };
  const offset = old.chunks.length;
  for (const run of runs) {
    if ("added" in run) {
      column.chunk[run.out] = (added.chunk[run.added] as number) + offset;
      column.start[run.out] = added.start[run.added] as number;
      column.end[run.out] = added.end[run.added] as number;
      continue;
    }
    column.chunk.set(old.chunk.subarray(run.from, run.to), run.out);
    column.start.set(old.start.subarray(run.from, run.to), run.out);
    column.end.set(old.end.subarray(run.from, run.to), run.out);
  }
  return column;
}

/** `old` with `runs` applied, `stride` numbers a slot: its slots' numbers copied where they go, `added`'s in place. */
export function mergedNumbers<A extends Int32Array | Uint16Array | Uint8Array>(
  old: A,
  added: A,
  runs: readonly PatchRun[],
  n: number,
  stride = 1,
): A {
  const out = new (old.constructor as new (length: number) => A)(n * stride);
  for (const run of runs) {
    if ("added" in run)
      out.set(added.subarray(run.added * stride, (run.added + 1) * stride), run.out * stride);
    else out.set(old.subarray(run.from * stride, run.to * stride), run.out * stride);
  }
  return out;
}

/**
 * What a patch of columns needs after a write changed some universities: their entries read again (`read`, by id;
 * those it no longer holds leave), made into fresh columns by `build` in ascending id order, and the runs that
 * merge those into the old slots (`ids`), with the patched length.
 */
export async function changedSlots<E, C>(
  ids: Int32Array,
  changed: ReadonlySet<number>,
  read: (ids: number[]) => Promise<Map<number, E>>,
  build: (entries: E[]) => C,
): Promise<{ added: number[]; fresh: C; runs: PatchRun[]; n: number }> {
  const entries = await read([...changed]);
  const added = [...entries.keys()].sort((a, b) => a - b);
  const fresh = build(added.map((id) => entries.get(id) as E));
  // Where the changed universities stood, and where each added one goes: the ids are ascending.
  const { runs } = patchById(ids, changed, added);
  return { added, fresh, runs, n: patchedLength(runs) };
}

/**
 * The slot of a university id, or -1 when the columns have none for it. Ids are distinct ascending integers, so
 * `id` can only sit between `last - id` slots before the end and `id - first` slots after the start: a binary
 * search within those bounds, which meet where the ids have no gaps (every university kept, as usual).
 */
export function slotOf(rows: { ids: Int32Array }, id: number): number {
  const ids = rows.ids;
  const last = ids.length - 1;
  if (last < 0) return -1;
  let lo = Math.max(0, last - ((ids[last] as number) - id));
  let hi = Math.min(last, id - (ids[0] as number));
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid]!;
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
