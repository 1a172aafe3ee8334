import { describe, expect, test } from "bun:test";
import {
  ByteColumnBuilder,
  byteLength,
  bytesText,
  copyBytes,
} from "../../src/http/spliced-json/byte-column.ts";

const TEXTS = [
  '{"name":"Plain College"}',
  '{"name":"Universität Zürich"}',
  '{"name":"北山大学"}',
  '{"name":"Institute 🎓 \\"Quoted\\""}',
  "",
  "x",
];

describe("byte column", () => {
  test("each slot keeps its text as UTF-8: its length, its string, its bytes copied", () => {
    const builder = new ByteColumnBuilder();
    const lengths = TEXTS.map((text, slot) => builder.set(slot, text));
    const column = builder.build(TEXTS.length);
    TEXTS.forEach((text, slot) => {
      const utf8 = Buffer.from(text, "utf8");
      expect(lengths[slot]).toBe(utf8.length);
      expect(byteLength(column, slot)).toBe(utf8.length);
      expect(bytesText(column, slot, 0, 0)).toBe(text);
      const out = Buffer.alloc(utf8.length + 8, 0x2a);
      expect(copyBytes(column, slot, 0, 0, out, 3)).toBe(3 + utf8.length);
      expect(out.subarray(3, 3 + utf8.length).equals(utf8)).toBe(true);
      // Nothing written before or after.
      expect([...out.subarray(0, 3), ...out.subarray(3 + utf8.length)].every((b) => b === 0x2a)).toBe(true);
    });
  });

  test("a head and a tail in bytes are left out, of the string and of the copy", () => {
    const builder = new ByteColumnBuilder();
    builder.set(0, '{"name":"北山","country":"JP"}');
    const column = builder.build(1);
    const tail = ',"country":"JP"}'.length;
    expect(bytesText(column, 0, 1, tail)).toBe('"name":"北山"');
    const out = Buffer.alloc(64);
    const end = copyBytes(column, 0, 1, tail, out, 0);
    expect(out.toString("utf8", 0, end)).toBe('"name":"北山"');
  });

  test("many texts span several chunks, and a text longer than a chunk has one of its own", () => {
    const builder = new ByteColumnBuilder();
    const texts: string[] = [];
    for (let slot = 0; slot < 12_000; slot++) {
      const text =
        slot === 6000 ? "é".repeat(300_000) : `{"id":${slot},"name":"Ünïversity ${"x".repeat(slot % 97)}"}`;
      texts.push(text);
      builder.set(slot, text);
    }
    const column = builder.build(texts.length);
    expect(column.chunks.length).toBeGreaterThan(3);
    // The long text is alone at the start of its chunk.
    expect(column.start[6000]).toBe(0);
    expect(new Set(column.chunk).size).toBe(column.chunks.length);
    for (let slot = 0; slot < texts.length; slot++) expect(bytesText(column, slot, 0, 0)).toBe(texts[slot]!);
    // Each chunk is no larger than its texts: nothing held past the last one's end.
    const used = column.chunks.map(() => 0);
    for (let slot = 0; slot < texts.length; slot++)
      used[column.chunk[slot]!] = Math.max(used[column.chunk[slot]!]!, column.end[slot]!);
    expect(column.chunks.map((c) => c.length)).toEqual(used);
  });

  test("slots may be set out of order and the column built for fewer than were grown", () => {
    const builder = new ByteColumnBuilder();
    builder.set(2, "two");
    builder.set(0, "zero");
    builder.set(1, "one");
    const column = builder.build(3);
    expect([0, 1, 2].map((slot) => bytesText(column, slot, 0, 0))).toEqual(["zero", "one", "two"]);
    expect(column.start.length).toBe(3);
  });
});
