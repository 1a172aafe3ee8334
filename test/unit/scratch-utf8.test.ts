import { describe, expect, test } from "bun:test";
import { scratchUtf8 } from "../../src/http/scratch-utf8.ts";
import { type AnswerBody, bodyRoom, bodyText, prefixed } from "../../src/http/spliced-json/answer-body.ts";
import { JsonRows } from "../../src/http/spliced-json/json-text.ts";

const encoder = new TextEncoder();

describe("scratchUtf8", () => {
  test("the same bytes as TextEncoder for every kind of text, short and long", () => {
    const texts = [
      "",
      "plain ASCII",
      "Université de Genève, Zürich, São Paulo",
      "東京大学 서울대학교 מכון ויצמן جامعة القاهرة มหาวิทยาลัย",
      "emoji outside the BMP: 🎓🏛️ and a lone surrogate \ud800 in the middle",
      "é".repeat(40_000),
      "東".repeat(30_000),
      `${"a".repeat(100_000)}🎓`,
    ];
    for (const text of texts) expect(scratchUtf8(text)).toEqual(encoder.encode(text));
  });

  test("answers share one buffer: a view is good until the next call, which writes over it", () => {
    const first = scratchUtf8("first answer");
    expect(new TextDecoder().decode(first)).toBe("first answer");
    const second = scratchUtf8("second answer");
    expect(second.buffer).toBe(first.buffer);
    expect(new TextDecoder().decode(first)).toBe("second answe");
  });

  test("the kept buffer grows to what a text needs and never past 4 MiB", () => {
    const mib = 1 << 20;
    const first = "a".repeat(Math.floor((2.5 * mib) / 3));
    expect(scratchUtf8(first).byteLength).toBe(first.length);
    const second = "b".repeat(mib);
    const bytes = scratchUtf8(second);
    expect(bytes).toEqual(encoder.encode(second));
    expect(bytes.buffer.byteLength).toBeGreaterThanOrEqual(3 * mib);
    expect(bytes.buffer.byteLength).toBeLessThanOrEqual(4 * mib);
  });

  test("a text larger than what is kept gets an array of its own, and the next small text still encodes", () => {
    const huge = "ü".repeat(2_000_000);
    const bytes = scratchUtf8(huge);
    expect(bytes.byteLength).toBe(4_000_000);
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(4_000_000);
    expect(scratchUtf8("after")).toEqual(encoder.encode("after"));
  });

  test("a body in pieces: the bytes of its text joined, rows written as a JSON array", () => {
    const rows = ['{"name":"Université de Genève"}', '{"name":"東京大学"}', '{"name":"🎓 \ud800"}'];
    const bodies: AnswerBody[] = [
      [],
      [new JsonRows([])],
      [new JsonRows(rows)],
      ['{"success":true,"data":', new JsonRows(rows), ',"meta":{"page":1}}'],
      prefixed('{"head":"ascii",', ['"data":', new JsonRows(["1"]), "}"]),
      ["é".repeat(30_000), new JsonRows(Array.from({ length: 2_000 }, (_, i) => `"東${i}"`))],
    ];
    for (const body of bodies) {
      const text = bodyText(body);
      expect(scratchUtf8(body)).toEqual(encoder.encode(text));
      expect(bodyRoom(body)).toBeGreaterThanOrEqual(encoder.encode(text).byteLength);
    }
    expect(bodyText([new JsonRows(rows)])).toBe(`[${rows.join(",")}]`);
    expect(JSON.parse(bodyText(bodies[3] as AnswerBody)).data).toEqual(rows.map((r) => JSON.parse(r)));
  });

  test("pieces larger than what is kept get an array of their own", () => {
    const rows = Array.from({ length: 3 }, () => `"${"ü".repeat(1_000_000)}"`);
    const bytes = scratchUtf8(["[0,", new JsonRows(rows), "]"]);
    expect(bytes.byteOffset).toBe(0);
    expect(bytes).toEqual(encoder.encode(`[0,[${rows.join(",")}]]`));
  });
});
