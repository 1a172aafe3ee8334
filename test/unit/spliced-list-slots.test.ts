import { expect, test } from "bun:test";
import { ByteColumnBuilder } from "../../src/http/spliced-json/byte-column.ts";
import { listSlotsOf, type RankedRows } from "../../src/http/spliced-json/ranked-row-texts.ts";
import { slotOf } from "../../src/http/spliced-json/text-column.ts";
import {
  type UniversityTexts,
  universityAt,
  universityReferenceAt,
} from "../../src/http/spliced-json/university-texts.ts";

/**
 * The list's rows of `ids` as the build makes them (`tail`: the length of `,"created_at":…}`, `referenceTail` of
 * `,"country":…,"created_at":…}`; or 0 to search).
 */
function listTexts(ids: number[], tail = true): UniversityTexts {
  const row = new ByteColumnBuilder();
  const texts = ids.map((id, slot) => {
    const text = `{"id":${id},"domain":"u${id}.example","name":"U ${id}","country":"NL","created_at":"2026-01-0${slot + 1}"}`;
    row.set(slot, text);
    return text;
  });
  const tails = (member: string) =>
    Uint8Array.from(texts, (text) => (tail ? text.length - text.lastIndexOf(member) : 0));
  return {
    ids: Int32Array.from(ids),
    row: row.build(ids.length),
    tail: tails(',"created_at":'),
    referenceTail: tails(',"country":'),
  };
}

const rows = { ids: Int32Array.from([2, 5, 9]) } as RankedRows;

test("each ranked slot finds its university in the list's rows, -1 where they do not hold it", () => {
  expect([...listSlotsOf(rows, listTexts([1, 2, 5, 9]))]).toEqual([1, 2, 3]);
  expect([...listSlotsOf(rows, listTexts([2, 9, 12]))]).toEqual([0, -1, 1]);
  expect([...listSlotsOf(rows, listTexts([]))]).toEqual([-1, -1, -1]);
});

test("the slots are kept for one pair only: other list rows for the same ranked rows are walked again", () => {
  const first = listTexts([1, 2, 5, 9]);
  expect(listSlotsOf(rows, first)).toBe(listSlotsOf(rows, first));
  expect([...listSlotsOf(rows, listTexts([2, 5, 9]))]).toEqual([0, 1, 2]);
});

test("a university's reference: cut by the kept tail length, or by a search where it is not kept", () => {
  for (const texts of [listTexts([3, 4]), listTexts([3, 4], false)]) {
    expect(universityAt(texts, 1)).toBe('"id":4,"domain":"u4.example","name":"U 4","country":"NL"');
    expect(universityReferenceAt(texts, 1)).toBe('"id":4,"domain":"u4.example","name":"U 4"');
  }
});

test("a slot is found by its id whether the ids have gaps or none, and -1 for any id they do not hold", () => {
  const dense = Int32Array.from({ length: 500 }, (_, i) => 1_000 + i);
  const gappy = Int32Array.from(
    { length: 500 },
    (_, i) => 3 * i + (i % 7 === 0 ? 2 : 0) + (i > 250 ? 900 : 0),
  );
  for (const ids of [dense, gappy, Int32Array.from([7]), new Int32Array(0)]) {
    const held = new Set(ids);
    const first = ids[0] ?? 0;
    const last = ids[ids.length - 1] ?? 0;
    for (let id = first - 3; id <= last + 3; id++) {
      expect({ id, slot: slotOf({ ids }, id) }).toEqual({ id, slot: held.has(id) ? ids.indexOf(id) : -1 });
    }
    for (const id of [-1, 0, 2 ** 31 - 1, 2 ** 40, Number.NaN, 1.5])
      expect({ id, slot: slotOf({ ids }, id) }).toEqual({ id, slot: held.has(id) ? ids.indexOf(id) : -1 });
  }
});
