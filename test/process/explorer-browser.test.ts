import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/databases.ts";
import {
  type AnyPage,
  axeViolations,
  CHROMIUM,
  chromiumAvailable,
  LAUNCH_ARGS,
  rendered,
  screenshotPath,
  type Watched,
  watchedPage,
} from "../support/explorer-browser.ts";
import { type ServeProcess, startServe } from "../support/serve-process.ts";

/**
 * The explorer in headless Chromium against a real `unirank serve` on the demo dataset, with the anonymous limit
 * on: every page renders its data, navigation and deep links work, nothing is asked of another host, no console
 * error, no serious or critical axe violation; a screenshot of each page lands in test/artifacts/.
 */

if (!chromiumAvailable) {
  console.warn(
    `[unirank tests] explorer-browser is skipped: no Chromium at ${CHROMIUM} (or set CHROMIUM_PATH)`,
  );
}

interface Envelope<T> {
  data: T;
  meta: Record<string, number>;
}

describe("explorer in headless Chromium", () => {
  if (!chromiumAvailable) {
    test.skip(`Chromium is not installed at ${CHROMIUM}`, () => {});
    return;
  }
  // biome-ignore lint/suspicious/noExplicitAny: playwright types are loaded lazily
  let browser: any;
  let serve: ServeProcess;
  let w: Watched;
  const dir = tempDir();
  /** What the API says, read with one API key-less call each (they count, as any client's). */
  const api = async <T>(path: string) =>
    (await (await fetch(`${serve.url}/api/v2${path}`)).json()) as Envelope<T>;
  const cells = (page: AnyPage, row: number): Promise<string[]> =>
    page.evaluate(
      (r: number) =>
        [
          ...(document.querySelector("main .table-wrap table")?.querySelectorAll("tbody tr")[r]?.children ??
            []),
        ].map((c) => (c.textContent ?? "").trim()),
      row,
    );
  const open = async (hash: string, name: string) => {
    await w.page.goto(`${serve.url}/${hash}`);
    await rendered(w.page);
    await w.page.screenshot({ path: screenshotPath(name), fullPage: true });
    expect(await axeViolations(w.page)).toEqual([]);
  };

  beforeAll(async () => {
    serve = await startServe(["--db", join(dir, "demo.db"), "--rate-limit", "100"]);
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
    w = await watchedPage(browser, new URL(serve.url).origin);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("overview: statistics, the histogram drawn, the top universities, the latest regressions", async () => {
    await open("", "overview");
    const p = w.page;
    expect(await p.title()).toBe("Overview · unirank explorer");
    const [all, top, dist] = await Promise.all([
      api<unknown[]>("/universities?limit=1"),
      api<{ name: string; overall_score: number }[]>("/rankings?limit=1"),
      api<unknown[]>("/distribution?bins=20"),
    ]);
    const stats = await p.$$eval(".stat dd", (els: Element[]) => els.map((e) => e.textContent));
    expect(stats[0]).toBe(all.meta.total?.toLocaleString("en"));
    expect(stats[1]).toBe(dist.meta.measured?.toLocaleString("en"));
    expect(
      await p.$$eval("main canvas", (els: HTMLCanvasElement[]) => els.map((c) => c.width > 0).length),
    ).toBe(1);
    const first = await cells(p, 0);
    expect(first.slice(0, 2)).toEqual(["1", top.data[0]?.name ?? ""]);
    expect(first[3]).toBe(top.data[0]?.overall_score.toFixed(1));
    // The histogram's data is the API's: its bars sum to the universities measured.
    expect(await p.locator("figure figcaption").first().textContent()).toContain("20 bins");
  }, 60_000);

  test("navigation: the menu, links into a university, back, and the score choice kept in the URL", async () => {
    await open("", "overview-nav");
    const p = w.page;
    await p.getByRole("link", { name: "Rankings", exact: true }).click();
    await p.locator("h1", { hasText: "Rankings" }).waitFor();
    await rendered(p);
    expect(new URL(p.url()).hash).toBe("#/rankings");
    expect(await p.locator("header nav a[aria-current=page]").textContent()).toBe("Rankings");
    const firstName = (await cells(p, 0))[1];
    await p.locator("main .table-wrap table tbody tr").first().getByRole("link").click();
    await p.locator("h1", { hasText: firstName }).waitFor();
    await rendered(p);
    expect(new URL(p.url()).hash).toMatch(/^#\/university\/\d+$/);
    await p.goBack();
    await p.locator("h1", { hasText: "Rankings" }).waitFor();
    await rendered(p);
    await p.goto(`${serve.url}/`);
    await rendered(p);
    await p.selectOption("select[name=score]", "tech_ssl_score");
    await p.getByRole("button", { name: "Show" }).click();
    await p.locator("figcaption", { hasText: "tls certificate" }).waitFor();
    await rendered(p);
    expect(new URL(p.url()).hash).toBe("#/?score=tech_ssl_score");
    expect(await p.locator("figure figcaption").first().textContent()).toContain("tls certificate");
  }, 60_000);

  test("rankings: deep link to page 2 shows the API's rows of page 2", async () => {
    await open("#/rankings?page=2&limit=20", "rankings");
    const rows = await api<{ rank: number; name: string }[]>("/rankings?page=2&limit=20");
    expect(await w.page.locator("main .table-wrap table tbody tr").count()).toBe(20);
    expect((await cells(w.page, 0)).slice(0, 2)).toEqual([
      String(rows.data[0]?.rank),
      rows.data[0]?.name ?? "",
    ]);
    expect(await w.page.locator(".pager").textContent()).toContain(
      `Page 2 of ${Math.ceil((rows.meta.total ?? 0) / 20)}`,
    );
  }, 60_000);

  test("rankings: a sort and filters in the link rank as the API does, and the form keeps them", async () => {
    const query = "sort=technical&country=fr&min_score=40&limit=20";
    await open(`#/rankings?${query}`, "rankings-filtered");
    const rows = await api<{ rank: number; name: string; country: string }[]>(`/rankings?${query}`);
    expect(rows.data.length).toBeGreaterThan(0);
    expect(rows.data.every((r) => r.country === "FR")).toBe(true);
    expect(await w.page.locator("main .table-wrap table tbody tr").count()).toBe(rows.data.length);
    expect((await cells(w.page, 0)).slice(0, 3)).toEqual([
      String(rows.data[0]?.rank),
      rows.data[0]?.name ?? "",
      "FR",
    ]);
    expect(await w.page.locator("select[name=sort]").inputValue()).toBe("technical");
    expect(await w.page.locator("input[name=country]").inputValue()).toBe("fr");
    expect(await w.page.locator("input[name=min_score]").inputValue()).toBe("40");
  }, 60_000);

  test("rankings: a search shows the matching universities above the ranking", async () => {
    await open("#/rankings?search=haan", "rankings-search");
    const found = await api<{ name: string }[]>("/universities?search=haan&limit=20");
    expect(found.data.length).toBeGreaterThan(0);
    expect((await cells(w.page, 0))[0]).toBe(found.data[0]?.name ?? "");
    expect(await w.page.locator("main .table-wrap").count()).toBe(2);
    expect(await w.page.locator("input[name=search]").inputValue()).toBe("haan");
  }, 60_000);

  test("university: grouped scores, the history chart, recommendations", async () => {
    const top = await api<{ id: number; name: string }[]>("/rankings?limit=1");
    const id = top.data[0]?.id;
    await open(`#/university/${id}`, "university");
    const p = w.page;
    expect(await p.locator("h1").textContent()).toBe(top.data[0]?.name);
    expect(await p.locator(".group h3").allTextContents()).toEqual([
      "Overall",
      "Composites",
      "Webometrics",
      "Research",
      "Presence",
      "Technical",
    ]);
    expect(await p.locator(".scores li").count()).toBe(34 + 5);
    expect(await p.locator("main canvas").count()).toBe(1);
    expect(await p.locator(".recs li").count()).toBeGreaterThan(0);
  }, 60_000);

  test("compare: three universities as a chart and a table", async () => {
    const top = await api<{ id: number; name: string }[]>("/rankings?limit=3");
    await open(`#/compare?ids=${top.data.map((r) => r.id).join(",")}`, "compare");
    const p = w.page;
    expect(await p.locator("main canvas").count()).toBe(1);
    const head = await p.$$eval("main .table-wrap table thead th", (els: Element[]) =>
      els.map((e) => e.textContent),
    );
    expect(head).toEqual(["Score", ...top.data.map((r) => r.name)]);
    expect((await cells(p, 0))[0]).toBe("Overall");
  }, 60_000);

  test("leaderboards and regressions: deep links show the API's first rows", async () => {
    await open("#/leaderboards?category=security", "leaderboards");
    const board = await api<{ rank: number; university: { name: string } }[]>(
      "/leaderboard/security?limit=25",
    );
    expect((await cells(w.page, 0)).slice(0, 2)).toEqual([
      String(board.data[0]?.rank),
      board.data[0]?.university.name ?? "",
    ]);
    expect(await w.page.locator(".tabs a[aria-current=page]").textContent()).toBe("security");

    await open("#/regressions?days=365&min_drop=1&category=overall", "regressions");
    const drops = await api<{ university: { name: string }; drop: number }[]>(
      "/regressions?days=365&min_drop=1&category=overall&limit=100",
    );
    expect(drops.data.length).toBeGreaterThan(0);
    expect(await w.page.locator("main .table-wrap table tbody tr").count()).toBe(drops.data.length);
    const first = await cells(w.page, 0);
    expect(first[0]).toBe(drops.data[0]?.university.name);
    expect(first[4]).toBe(`−${drops.data[0]?.drop.toFixed(1)}`);
  }, 60_000);

  test("a phone and the dark scheme: the overview still renders without horizontal scrolling", async () => {
    const phone = await watchedPage(browser, new URL(serve.url).origin, {
      viewport: { width: 390, height: 844 },
      colorScheme: "dark",
    });
    await phone.page.goto(`${serve.url}/`);
    await rendered(phone.page);
    await phone.page.screenshot({ path: screenshotPath("overview-phone-dark"), fullPage: true });
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeViolations(phone.page)).toEqual([]);
    expect(phone.external).toEqual([]);
    expect(phone.errors).toEqual([]);
    await phone.page.close();
  }, 60_000);

  test("nothing was asked of another host, no console error, and no call was refused", () => {
    expect(w.external).toEqual([]);
    expect(w.errors).toEqual([]);
    expect(w.apiCalls.length).toBeGreaterThan(20);
  });
});
