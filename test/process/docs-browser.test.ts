import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { openSqlite } from "../../src/db/open.ts";
import { CHROMIUM_ARGS } from "../../src/scanner/browser/chromium.ts";
import { serverClient, testContext } from "../support/fixtures-app.ts";

/**
 * /docs in a real headless Chromium with every request to another host aborted and counted: the page must
 * render the v2 operations from unirank's own assets alone. Skips (saying so) when Chromium is not installed.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARTIFACTS = join(import.meta.dir, "..", "artifacts");
const available = existsSync(CHROMIUM);
if (!available) {
  console.warn(
    `[unirank tests] docs-browser is skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`,
  );
}

describe("docs page in headless Chromium", () => {
  if (!available) {
    test.skip(`Chromium is not installed at ${CHROMIUM}`, () => {});
    return;
  }

  // biome-ignore lint/suspicious/noExplicitAny: playwright types are loaded lazily
  let browser: any;
  let server: ReturnType<typeof serverClient>;
  let opened: ReturnType<typeof openSqlite>;

  beforeAll(async () => {
    opened = openSqlite(":memory:"); // the docs need no database
    server = serverClient(testContext(opened.db));
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [...CHROMIUM_ARGS],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await opened?.close();
  });

  test("renders the v2 operations with zero requests to other hosts", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    const origin = new URL(server.url).origin;
    const external: string[] = [];
    const local: string[] = [];
    const consoleErrors: string[] = [];
    page.on("console", (m: { type(): string; text(): string }) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
    page.on("pageerror", (e: Error) => consoleErrors.push(String(e)));
    await page.route(
      "**/*",
      (route: { request(): { url(): string }; abort(): Promise<void>; continue(): Promise<void> }) => {
        const url = route.request().url();
        if (url.startsWith("data:") || new URL(url).origin === origin) {
          local.push(url);
          return route.continue();
        }
        external.push(url);
        return route.abort();
      },
    );

    const response = await page.goto(`${server.url}/docs`, { waitUntil: "load" });
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("text/html; charset=utf-8");
    await page.getByText("/api/v2/regressions", { exact: true }).first().waitFor({ timeout: 30_000 });
    await page.waitForLoadState("networkidle");

    // biome-ignore lint/performance/useDomNodeTextContent: the assertion is about text a person can see
    const text: string = await page.innerText("body");
    for (const path of [
      "/api/v2/universities",
      "/api/v2/universities/{id}",
      "/api/v2/rankings",
      "/api/v2/scans/{id}",
      "/api/v2/scan-diff",
      "/api/v2/leaderboard/{category}",
      "/api/v2/regressions",
      "/api/v2/schema",
      "/api/v1/universities",
      "/health",
    ]) {
      expect(text).toContain(path);
    }
    expect(text).toContain("unirank API");
    expect(text).toContain("Recent score drops");

    // open one operation: its parameters (with their enum) are rendered too
    await page.getByText("/api/v2/leaderboard/{category}", { exact: true }).first().click();
    await page.locator("select").first().waitFor({ timeout: 10_000 });
    // biome-ignore lint/performance/useDomNodeTextContent: the assertion is about text a person can see
    const opened = await page.innerText("body");
    expect(opened).toContain("category");
    expect(opened).toContain("performance");

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "docs.png"), fullPage: false });

    expect(external).toEqual([]);
    expect(local.some((u) => u.endsWith("/docs/assets/swagger-ui-bundle.js"))).toBe(true);
    expect(local.some((u) => u.endsWith("/openapi.json"))).toBe(true);
    expect(consoleErrors).toEqual([]);
    await page.close();
  }, 90_000);

  test("assets are served by unirank itself, with caching headers", async () => {
    for (const [file, type] of [
      ["swagger-ui-bundle.js", "text/javascript; charset=utf-8"],
      ["swagger-ui.css", "text/css; charset=utf-8"],
      ["docs.js", "text/javascript; charset=utf-8"],
    ] as const) {
      const r = await server.fetch(`/docs/assets/${file}`);
      expect(r.status).toBe(200);
      expect(r.headers.get("Content-Type")).toBe(type);
      expect(r.headers.get("ETag")).toBeTruthy();
      const body = await r.text();
      expect(body.length).toBeGreaterThan(100);
      expect(body).not.toContain("sourceMappingURL");
    }
    const page = await server.fetch("/docs");
    expect(page.headers.get("Content-Security-Policy")).toStartWith("default-src 'none'");
    const html = await page.text();
    expect(html).not.toMatch(/(src|href)="https?:/);
  });
});
