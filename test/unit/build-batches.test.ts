import { expect, test } from "bun:test";
import { buildBatches, FULL_EVERY, ROWS_PER_COLLECTION } from "../../src/http/spliced-json/build-batches.ts";

/** `count` rows with ids 1…count, read `size` at a time by key, as a build reads them. */
const reader = (count: number, size: number) => async (after: number) =>
  Array.from({ length: Math.max(0, Math.min(size, count - after)) }, (_, i) => ({ id: after + i + 1 }));

test("a build collects after every ROWS_PER_COLLECTION rows it has used, every FULL_EVERY-th collection a full one", async () => {
  const size = 512;
  const count = ROWS_PER_COLLECTION * FULL_EVERY * 2 + 1_000;
  const calls: { full: boolean; usedRows: number }[] = [];
  let used = 0;
  for await (const batch of buildBatches(size, reader(count, size), (full) =>
    calls.push({ full, usedRows: used }),
  )) {
    used += batch.length;
  }
  expect(used).toBe(count);
  // One collection each time another ROWS_PER_COLLECTION rows (whole batches) have passed.
  const perCollection = Math.ceil(ROWS_PER_COLLECTION / size) * size;
  expect(calls.length).toBe(Math.floor(count / perCollection));
  calls.forEach((call, i) => {
    expect(call.usedRows).toBe((i + 1) * perCollection);
    expect(call.full).toBe((i + 1) % FULL_EVERY === 0);
  });
});

test("a build smaller than ROWS_PER_COLLECTION rows asks for no collection", async () => {
  let collections = 0;
  let rows = 0;
  for await (const batch of buildBatches(100, reader(ROWS_PER_COLLECTION - 1, 100), () => collections++)) {
    rows += batch.length;
  }
  expect(rows).toBe(ROWS_PER_COLLECTION - 1);
  expect(collections).toBe(0);
});
