import { expect, test } from "bun:test";
import { runSteps, runStepsLettingOthersRun, type Steps } from "../../lib/steps/run-steps.ts";

function* counted(log: string[], pauses: number): Steps<number> {
  let sum = 0;
  for (let i = 1; i <= pauses; i++) {
    log.push(`step ${i}`);
    sum += i;
    yield;
  }
  return sum;
}

test("runSteps runs every step at once and gives the steps' value", () => {
  const log: string[] = [];
  expect(runSteps(counted(log, 4))).toBe(10);
  expect(log).toEqual(["step 1", "step 2", "step 3", "step 4"]);
});

test("runStepsLettingOthersRun gives the same value and lets waiting work run at every pause", async () => {
  const log: string[] = [];
  let others = 0;
  const other = () => {
    log.push("other");
    if (++others < 10) setImmediate(other);
  };
  setImmediate(other);
  const value = await runStepsLettingOthersRun(counted(log, 3));
  expect(value).toBe(6);
  // Other work came between the steps, not only after the last one.
  expect(log.indexOf("other")).toBeGreaterThan(0);
  expect(log.indexOf("other")).toBeLessThan(log.indexOf("step 3"));
});
