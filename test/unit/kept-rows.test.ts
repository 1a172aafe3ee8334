import { describe, expect, test } from "bun:test";
import { scratchUtf8 } from "../../src/http/scratch-utf8.ts";
import { type KeptRow, KeptRowArray, KeptRows } from "../../src/http/spliced-json/kept-rows.ts";

const decoded = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** The array's bytes as the answers write them. */
const written = (rows: readonly KeptRow[]) => decoded(scratchUtf8([new KeptRowArray(rows)]));

const rowText = (i: number) =>
  i % 3 === 0 ? `{"rank":${i},"name":"東京大学 ${i}"}` : `{"rank":${i},"name":"Université ${i} 🎓"}`;

describe("KeptRows and KeptRowArray", () => {
  test("rows made one after another are written as one JSON array, in any order and with gaps", () => {
    const kept = new KeptRows(10_000);
    const rows = Array.from({ length: 300 }, (_, i) => kept.keep(i, i / 10, rowText(i)));
    const orders = [
      rows,
      rows.slice(40, 90),
      [...rows].reverse(),
      rows.filter((_, i) => i % 7 !== 3),
      [rows[5], rows[5], rows[6]] as KeptRow[],
      [rows[0]] as KeptRow[],
      [],
    ];
    for (const order of orders) {
      const text = written(order);
      expect(text).toBe(`[${order.map((r) => r.text).join(",")}]`);
      expect(JSON.parse(text)).toEqual(order.map((r) => JSON.parse(r.text)));
      expect(new KeptRowArray(order).text).toBe(text);
    }
  });

  test("runs end at a chunk's end: rows spread over many chunks are written whole", () => {
    const kept = new KeptRows(100_000);
    // Rows of about 9 KB: a 128 KB chunk holds a dozen or so.
    const rows = Array.from({ length: 60 }, (_, i) => kept.keep(i, 0, `"${"é".repeat(4_000 + i)}${i}"`));
    expect(new Set(rows.map((r) => r.chunk)).size).toBeGreaterThan(3);
    expect(written(rows)).toBe(`[${rows.map((r) => r.text).join(",")}]`);
  });

  test("a row is found by its key, with its score; past the limit the rows start afresh", () => {
    const kept = new KeptRows(4);
    for (let i = 0; i < 4; i++) kept.keep(i, i, rowText(i));
    expect(kept.get(2)?.score).toBe(2);
    expect(kept.get(2)?.text).toBe(rowText(2));
    const fifth = kept.keep(4, 4, rowText(4));
    expect(kept.get(2)).toBeUndefined();
    expect(kept.get(4)).toBe(fifth);
    // Rows handed out before keep their bytes.
    expect(written([fifth])).toBe(`[${rowText(4)}]`);
  });

  test("a row made again (a new score) is written as itself, not beside its old place", () => {
    const kept = new KeptRows(100);
    const a = kept.keep(1, 1, rowText(1));
    const b = kept.keep(2, 2, rowText(2));
    const again = kept.keep(1, 5, rowText(11));
    expect(kept.get(1)).toBe(again);
    expect(written([a, b, again])).toBe(`[${rowText(1)},${rowText(2)},${rowText(11)}]`);
    expect(written([again, b])).toBe(`[${rowText(11)},${rowText(2)}]`);
  });
});
