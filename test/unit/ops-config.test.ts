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
