/**
 * The explorer's overview from the compiled executable (its assets embedded at build time), in headless
 * Chromium, with a PATH that holds neither bun nor node and nothing from another host.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { buildBinary } from "../../scripts/build.ts";
import { tempDir } from "../support/databases.ts";
import {
  axeViolations,
  CHROMIUM,
  chromiumAvailable,
  LAUNCH_ARGS,
  rendered,
  screenshotPath,
  watchedPage,
} from "../support/explorer-browser.ts";

const work = tempDir("unirank-explorer-binary-");
const home = join(work, "home");
const emptyBin = join(work, "bin");

describe("explorer from the compiled binary", () => {
  if (!chromiumAvailable) {
    test.skip(`Chromium is not installed at ${CHROMIUM}`, () => {});
    return;
  }
  let proc: Bun.Subprocess<"ignore", "ignore", "pipe"> | undefined;
  let url = "";
  // biome-ignore lint/suspicious/noExplicitAny: playwright types are loaded lazily
  let browser: any;

  beforeAll(async () => {
    for (const dir of [home, emptyBin]) mkdirSync(dir, { recursive: true });
    buildBinary(join(work, "unirank"));
    copyFileSync(join(work, "unirank"), join(home, "unirank"));
    proc = Bun.spawn([join(home, "unirank"), "serve", "--port", "0"], {
      cwd: home,
      env: { PATH: emptyBin, HOME: work, LANG: "C.UTF-8" },
      stdin: "ignore",
      stdout: "ignore",
      stderr: "pipe",
    });
    const reader = proc.stderr.getReader();
    let text = "";
    const deadline = Date.now() + 60_000;
    while (!url && Date.now() < deadline) {
      const { done, value } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
      url = /"url":"(http:\/\/[^"]+)"/.exec(text)?.[1] ?? "";
    }
    reader.releaseLock();
    if (!url) throw new Error(`the binary did not start:\n${text}`);
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    proc?.kill("SIGTERM");
    await proc?.exited;
    rmSync(work, { recursive: true, force: true });
  });

  test("the overview renders its statistics, histogram and tables", async () => {
    const w = await watchedPage(browser, new URL(url).origin);
    const page = await w.page.goto(`${url}/`);
    expect(page.headers()["content-type"]).toBe("text/html; charset=utf-8");
    await rendered(w.page);
    await w.page.screenshot({ path: screenshotPath("overview-binary"), fullPage: true });
    expect(await w.page.locator("h1").textContent()).toBe("Overview");
    expect(await w.page.locator("main canvas").count()).toBe(1);
    expect(await w.page.locator(".stat dd").first().textContent()).toBe("500");
    expect(await w.page.locator("main .table-wrap").first().locator("tbody tr").count()).toBe(10);
    expect(await axeViolations(w.page)).toEqual([]);
    expect(w.external).toEqual([]);
    expect(w.errors).toEqual([]);
  }, 60_000);
});
