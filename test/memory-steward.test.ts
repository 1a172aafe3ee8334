import { expect, test } from "bun:test";
import { startMemorySteward } from "../src/memory-steward.ts";

const mb = () => process.memoryUsage.rss() / 1048576;

// Without the steward, the runtime kept that garbage resident through the same 200 ms (checked by hand, 5 of 5 runs;
// not asserted here, as any steward another test file left running would collect it).
test("the memory steward collects once garbage passes the headroom", async () => {
  const garbage = () => {
    // About 150 MB of short strings in arrays, dropped at once.
    let junk: string[][] = [];
    for (let i = 0; i < 60; i++)
      junk.push(Array.from({ length: 50_000 }, (_, j) => `${i}:${j}:${"x".repeat(24)}`));
    const peak = mb();
    junk = [];
    return peak;
  };
  Bun.gc(true);
  const stop = startMemorySteward(16, 20);
  try {
    const peak = garbage();
    await Bun.sleep(200);
    expect(mb()).toBeLessThan(peak - 60);
  } finally {
    stop();
  }
});
