import { expect, test } from "bun:test";
import { bumpGeneration } from "../../lib/db/generation.ts";
import { generationMemo } from "../../lib/db/generation-memo.ts";
import { describeEachDatabase } from "../support/databases.ts";

/** A build that waits until `finish` is called, counting how often it ran. */
function gatedBuild() {
  let builds = 0;
  let release: (() => void) | null = null;
  let fail = false;
  const build = async (_db: unknown, key: string) => {
    builds++;
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    if (fail) throw new Error(`build of ${key} failed`);
    return { key, build: builds };
  };
  return {
    build,
    builds: () => builds,
    /** Resolves once `n` builds have started: a call reads the generation first, a round trip no fixed wait covers. */
    async started(n: number) {
      while (builds < n) await new Promise((resolve) => setTimeout(resolve, 1));
    },
    finish(failing = false) {
      fail = failing;
      release?.();
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describeEachDatabase("generationMemo", (get) => {
  test("one build a generation, shared by concurrent callers; a write makes the next call build again", async () => {
    const { db } = get();
    const gate = gatedBuild();
    const memo = generationMemo(gate.build);
    const both = Promise.all([memo(db, "k"), memo(db, "k")]);
    await gate.started(1);
    await settle();
    gate.finish();
    const [a, b] = await both;
    expect(a).toBe(b);
    expect(gate.builds()).toBe(1);
    expect(await memo(db, "k")).toBe(a);
    await bumpGeneration(db);
    const next = memo(db, "k");
    await gate.started(2);
    gate.finish();
    expect(await next).not.toBe(a);
    expect(gate.builds()).toBe(2);
  });

  test("ifBuilt: null while the value is built (the build started by it), the value once built", async () => {
    const { db } = get();
    const gate = gatedBuild();
    const memo = generationMemo(gate.build);
    expect(await memo.ifBuilt(db, "k")).toBeNull();
    expect(gate.builds()).toBe(1);
    // Asked again while building: still null, and no second build.
    expect(await memo.ifBuilt(db, "k")).toBeNull();
    expect(gate.builds()).toBe(1);
    gate.finish();
    await settle();
    const built = await memo.ifBuilt(db, "k");
    expect(built).toEqual({ key: "k", build: 1 });
    expect(await memo(db, "k")).toBe(built as { key: string; build: number });
  });

  test("ifBuilt: a failed build is forgotten, unawaited and unreported, and the next call builds again", async () => {
    const { db } = get();
    const gate = gatedBuild();
    const memo = generationMemo(gate.build);
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on("unhandledRejection", onUnhandled);
    try {
      expect(await memo.ifBuilt(db, "k")).toBeNull();
      gate.finish(true);
      await settle();
      expect(await memo.ifBuilt(db, "k")).toBeNull();
      expect(gate.builds()).toBe(2);
      gate.finish();
      await settle();
      expect(await memo.ifBuilt(db, "k")).toEqual({ key: "k", build: 2 });
      // A caller that waits sees a failure as its own error.
      await bumpGeneration(db);
      const waited = memo(db, "k");
      await gate.started(3);
      gate.finish(true);
      await expect(waited).rejects.toThrow("build of k failed");
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
