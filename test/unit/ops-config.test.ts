import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";

describe("config: the data window", () => {
  test("default 1 ms; --data-window and UNIRANK_DATA_WINDOW_MS set it, the option first", () => {
    expect(loadConfig({}, {}).dataWindowMs).toBe(1);
    expect(loadConfig({ dataWindow: "0" }, {}).dataWindowMs).toBe(0);
    expect(loadConfig({}, { UNIRANK_DATA_WINDOW_MS: "250" }).dataWindowMs).toBe(250);
    expect(loadConfig({ dataWindow: "5" }, { UNIRANK_DATA_WINDOW_MS: "250" }).dataWindowMs).toBe(5);
  });

  test("a malformed window stops the start with a message", () => {
    for (const bad of ["-1", "1.5", "abc", "60001"]) {
      expect(() => loadConfig({ dataWindow: bad }, {})).toThrow(
        "data window must be an integer from 0 to 60000",
      );
    }
  });
});

describe("config: the explorer's page-view budget and limit", () => {
  test("defaults: 24 calls within 120 s per view; views count against the anonymous limit", () => {
    const c = loadConfig({}, {});
    expect([c.explorerViewCalls, c.explorerViewSeconds, c.explorerViews]).toEqual([24, 120, null]);
  });

  test("options and environment raise them, the option first; 0 views = not limited", () => {
    const env = {
      UNIRANK_EXPLORER_VIEW_CALLS: "60",
      UNIRANK_EXPLORER_VIEW_SECONDS: "300",
      UNIRANK_EXPLORER_VIEWS: "5000",
    };
    const fromEnv = loadConfig({}, env);
    expect([fromEnv.explorerViewCalls, fromEnv.explorerViewSeconds, fromEnv.explorerViews]).toEqual([
      60, 300, 5000,
    ]);
    const fromCli = loadConfig({ explorerViewCalls: "40", explorerViewSeconds: 200, explorerViews: 0 }, env);
    expect([fromCli.explorerViewCalls, fromCli.explorerViewSeconds, fromCli.explorerViews]).toEqual([
      40, 200, 0,
    ]);
  });

  test("out-of-range values stop the start with a message", () => {
    expect(() => loadConfig({ explorerViewCalls: "0" }, {})).toThrow("explorer view calls must be");
    expect(() => loadConfig({ explorerViewCalls: "1001" }, {})).toThrow("explorer view calls must be");
    expect(() => loadConfig({}, { UNIRANK_EXPLORER_VIEW_SECONDS: "1h" })).toThrow("explorer view seconds");
    expect(() => loadConfig({}, { UNIRANK_EXPLORER_VIEWS: "-5" })).toThrow("explorer views must be");
  });
});
