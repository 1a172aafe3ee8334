import { expect, test } from "bun:test";
import { parseExposition } from "../support/prometheus-text.ts";

test("a scrape with NaN and -Inf samples (valid in the format) parses; they are answered as their value", async () => {
  const text = [
    "# HELP nodejs_eventloop_lag_mean_seconds Mean of the recorded event loop delays.",
    "# TYPE nodejs_eventloop_lag_mean_seconds gauge",
    "nodejs_eventloop_lag_mean_seconds NaN",
    "# HELP up Whether it is up.",
    "# TYPE up gauge",
    "up 1",
    'lowest{kind="x"} -Inf',
    "",
  ].join("\n");
  const m = await parseExposition(text);
  expect(m.value("up")).toBe(1);
  expect(m.value("nodejs_eventloop_lag_mean_seconds")).toBeNaN();
  expect(m.value("lowest", { kind: "x" })).toBeUndefined();
});
