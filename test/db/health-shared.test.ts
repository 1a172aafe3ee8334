import { expect, test } from "bun:test";
import { createApp } from "../../src/http/app.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { testContext } from "../support/fixtures-app.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `/health` runs its checks once for the requests of a millisecond (src/http/health.ts), and again after it. */
describeEachDatabase("http: /health answers share one run of the checks", (get) => {
  test("concurrent requests share the checks; a request after the window sees what changed", async () => {
    let runs = 0;
    let freeGb = 100;
    const app = createApp(
      testContext(get().db, {
        hostChecks: {
          freeDiskBytes: async () => {
            runs++;
            return freeGb * 1024 ** 3;
          },
        },
      }),
    );
    const ask = () => app.handle(new Request("http://unirank.test/health"));
    await ask();
    await sleep(5);
    const before = runs;
    const answers = await Promise.all(Array.from({ length: 20 }, ask));
    const bodies = await Promise.all(answers.map((a) => a.text()));
    // Twenty requests of one tick: one run of the checks (two if the window closed between them), one text.
    expect(runs - before).toBeGreaterThanOrEqual(1);
    expect(runs - before).toBeLessThanOrEqual(2);
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
    expect(JSON.parse(bodies[0] as string).checks.disk).toEqual({ status: "ok", free_gb: 100 });

    // The next window runs them again and answers with the change.
    freeGb = 0.5;
    await sleep(5);
    const low = await ask();
    expect(runs - before).toBeGreaterThanOrEqual(2);
    const body = (await low.json()) as { status: string; checks: { disk: unknown } };
    expect(body.checks.disk).toEqual({ status: "warn", free_gb: 0.5 });
    expect(body.status).toBe("degraded");
    // Each answer is still its own: a request id and an entity tag of the text.
    expect(low.headers.get("X-Request-Id")).not.toBe(answers[0]?.headers.get("X-Request-Id"));
    expect(low.headers.get("ETag")).not.toBe(answers[0]?.headers.get("ETag"));
  });
});
