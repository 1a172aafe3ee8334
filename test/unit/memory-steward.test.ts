import { expect, test } from "bun:test";
import {
  GARBAGE_PACE_MS,
  garbagePacer,
  memorySteward,
  requestPacer,
  startMemorySteward,
} from "../../src/memory-steward.ts";

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
    soon: 0,
    collectSoon: () => {
      runtime.soon++;
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
  const stop = startMemorySteward(0, { everyMs: 1, paced: true, runtime: rt });
  stop();
  expect(rt.collections).toBe(0);
  expect(rt.soon).toBe(0);
});

test("a server's pacer asks for collections with a headroom, and never with a headroom of 0", () => {
  let asked = 0;
  const off = requestPacer(0, () => asked++);
  for (let i = 0; i < 5; i++) off();
  expect(asked).toBe(0);
  const on = requestPacer(32, () => asked++);
  on();
  expect(asked).toBe(1);
});

test("the pacer asks for a collection at most once every period of work, the first call at once", () => {
  let now = 1000;
  let asked = 0;
  const pace = garbagePacer(
    20,
    () => asked++,
    () => now,
  );
  pace();
  expect(asked).toBe(1);
  for (const t of [1001, 1010, 1019.9]) {
    now = t;
    pace();
  }
  expect(asked).toBe(1);
  now = 1020;
  pace();
  expect(asked).toBe(2);
  // However long the pause since: one ask, and the period counts from it.
  now = 5000;
  pace();
  pace();
  expect(asked).toBe(3);
  now = 5019;
  pace();
  expect(asked).toBe(3);
});

test("a paced steward asks for collections from a timer while it runs, and not once stopped", async () => {
  const rt = fakeRuntime(100);
  const stop = startMemorySteward(64, { paced: true, runtime: rt });
  await Bun.sleep(GARBAGE_PACE_MS * 5);
  stop();
  const asked = rt.soon;
  expect(asked).toBeGreaterThanOrEqual(2);
  await Bun.sleep(GARBAGE_PACE_MS * 3);
  expect(rt.soon).toBe(asked);
  // Unpaced (a server, which paces from its request path): no asks.
  const quiet = fakeRuntime(100);
  const stopQuiet = startMemorySteward(64, { runtime: quiet });
  await Bun.sleep(GARBAGE_PACE_MS * 3);
  stopQuiet();
  expect(quiet.soon).toBe(0);
});
