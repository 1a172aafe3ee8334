import { expect, test } from "bun:test";
import { memorySteward, startMemorySteward } from "../../src/memory-steward.ts";

const MB = 1024 * 1024;

/** A resident size the test sets, and the collections asked for (each takes the size down to `afterCollect`). */
function fakeRuntime(start: number) {
  const runtime = {
    size: start * MB,
    afterCollect: start * MB,
    collections: 0,
    rss: () => runtime.size,
    collect: () => {
      runtime.collections++;
      runtime.size = runtime.afterCollect;
    },
  };
  return runtime;
}

test("collects once the resident size passes the floor by more than the headroom, not before", () => {
  const rt = fakeRuntime(100);
  const steward = memorySteward(16, rt);
  rt.size = 116 * MB;
  expect(steward.check()).toBe(false);
  rt.size = 117 * MB;
  rt.afterCollect = 101 * MB;
  expect(steward.check()).toBe(true);
  expect(rt.collections).toBe(1);
  // The floor is now what the collection left (101 MB): 117 MB is again within the headroom.
  rt.size = 117 * MB;
  expect(steward.check()).toBe(false);
  expect(rt.collections).toBe(1);
});

test("a heap that really grew raises the floor after one collection, and is not collected every time", () => {
  const rt = fakeRuntime(100);
  const steward = memorySteward(16, rt);
  rt.size = 300 * MB;
  rt.afterCollect = 280 * MB; // live data: the collection gives little back
  expect(steward.check()).toBe(true);
  for (let i = 0; i < 5; i++) expect(steward.check()).toBe(false);
  expect(rt.collections).toBe(1);
});

test("the floor follows the resident size down", () => {
  const rt = fakeRuntime(200);
  const steward = memorySteward(16, rt);
  rt.size = 120 * MB;
  expect(steward.check()).toBe(false);
  rt.size = 137 * MB; // 17 MB above the new floor of 120
  expect(steward.check()).toBe(true);
});

test("a headroom of 0 starts nothing", () => {
  const rt = fakeRuntime(100);
  const stop = startMemorySteward(0, 1, rt);
  stop();
  expect(rt.collections).toBe(0);
});
