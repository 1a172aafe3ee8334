import { expect, test } from "bun:test";
import { scratchUtf8 } from "../../src/http/scratch-utf8.ts";
import { JsonBytes } from "../../src/http/spliced-json/json-text.ts";

test("a value kept as bytes writes its text's UTF-8, and nothing around it", () => {
  for (const text of [
    '{"a":1}',
    JSON.stringify({ note: "≥ 70 – Université 北山 🎓", list: [1, "\u2028"] }),
    '""',
  ]) {
    const value = new JsonBytes(text);
    expect(value.text).toBe(text);
    expect(value.room).toBe(Buffer.byteLength(text));
    const out = Buffer.alloc(value.room + 4, 0xee);
    expect(value.write(out, 2)).toBe(2 + value.room);
    expect(out.subarray(2, 2 + value.room).toString("utf8")).toBe(text);
    expect([out[0], out[1], out[value.room + 2], out[value.room + 3]]).toEqual([0xee, 0xee, 0xee, 0xee]);
    // Between other pieces of an answer.
    expect(new TextDecoder().decode(scratchUtf8(['{"data":', value, "}"]))).toBe(`{"data":${text}}`);
  }
});
