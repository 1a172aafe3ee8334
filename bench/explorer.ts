#!/usr/bin/env bun
/**
 * Explorer figures (`bun bench/explorer.ts`): gzipped bytes of its script and style, and per page the time from
 * navigation to the first rendered chart (or, on pages without one, the first rendered table), in headless
 * Chromium against `unirank serve` on loopback with the demo dataset. Median of a few loads each.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { tempDir } from "../test/support/databases.ts";
import { CHROMIUM, LAUNCH_ARGS } from "../test/support/explorer-browser.ts";
import { startServe } from "../test/support/serve-process.ts";

const RUNS = Number(process.argv[2] ?? 5);
const dir = tempDir("unirank-bench-explorer-");
const serve = await startServe(["--db", join(dir, "demo.db"), "--rate-limit", "0"]);
try {
  for (const asset of ["app.js", "app.css"]) {
    const text = await (await fetch(`${serve.url}/explorer/${asset}`)).text();
    const gz = Bun.gzipSync(new TextEncoder().encode(text)).length;
    console.log(
      `${asset.padEnd(8)} ${(text.length / 1024).toFixed(1).padStart(6)} KiB raw  ${(gz / 1024).toFixed(1).padStart(5)} KiB gzip`,
    );
  }
  const top = (await (await fetch(`${serve.url}/api/v2/rankings?limit=3`)).json()) as {
    data: { id: number }[];
  };
  const ids = top.data.map((r) => r.id);
  const history = (await (await fetch(`${serve.url}/api/v2/universities/${ids[0]}/history`)).json()) as {
    data: { id: number }[];
  };
  const [a, b] = history.data.slice(-2).map((s) => s.id);
  const pages: [string, string, string][] = [
    ["overview", "", "chart"],
    ["rankings", "#/rankings", "table"],
    ["university", `#/university/${ids[0]}`, "chart"],
    ["compare", `#/compare?ids=${ids.join(",")}`, "chart"],
    ["leaderboards", "#/leaderboards?category=overall", "table"],
    ["regressions", "#/regressions", "table"],
    ["diff", `#/diff?a=${a}&b=${b}`, "table"],
  ];
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  for (const [name, hash, what] of pages) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const started = performance.now();
      await page.goto(`${serve.url}/${hash}`);
      await page.waitForSelector(
        what === "chart" ? ".plot[data-drawn=true] canvas" : "main .table-wrap tbody tr",
        {
          timeout: 30_000,
        },
      );
      times.push(performance.now() - started);
      await page.close();
    }
    times.sort((a, b) => a - b);
    const median = times[times.length >> 1] ?? 0;
    console.log(
      `${name.padEnd(13)} first ${what.padEnd(5)} ${median.toFixed(0).padStart(5)} ms (median of ${RUNS})`,
    );
  }
  await browser.close();
} finally {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
}
