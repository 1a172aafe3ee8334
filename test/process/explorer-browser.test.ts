import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { CATEGORIES, CATEGORY_NAMES, SCORE_BY_NAME } from "../../lib/scores/catalogue.ts";
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
import {
  buildExplorerDataset,
  type ExplorerDataset,
  LONG_NAME,
  SCANNED_NAME,
} from "../support/explorer-fixture.ts";
import { type ServeProcess, startServe } from "../support/serve-process.ts";

/**
 * The explorer in headless Chromium against a real `unirank serve` on the demo dataset plus a university that
 * `unirank scan` scanned twice on a loopback site (one security header removed in between) and one whose name is
 * 500 characters long, with the anonymous limit on: every page shows the API's data, the evidence check by check,
 * what changed between the two scans, the rank; Compare finds universities by name; downloads hold the page's
 * data; at 390 px every table keeps its name and main score in view; nothing is asked of another host, no console
 * error, no serious or critical axe violation in light and dark; screenshots land in test/artifacts/.
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
interface Check {
  id: string;
  score: string;
  label: string;
  points: number;
  max: number;
  detail: string;
}
interface Scan {
  id: number;
  scores: Record<string, number | null>;
  evidence: { checks: Check[]; [k: string]: unknown };
}

/** Expected renderings, written out here rather than taken from the page's code. */
const one = (v: number | null | undefined) => (v == null ? "—" : v.toFixed(1));
const minus = (n: number) => (n < 0 ? `−${-n}` : String(n));
const points = (c: { points: number; max: number }) =>
  c.max > 0
    ? `${minus(c.points)} of ${c.max}`
    : c.points < 0
      ? `${minus(c.points)} (penalty)`
      : "0 (no penalty)";
const result = (c: { points: number; max: number }) =>
  c.points < 0 ? "fail" : c.points >= c.max ? "pass" : c.points > 0 ? "partial" : "fail";
const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
};
const label = (score: string) => SCORE_BY_NAME.get(score)?.label ?? "";

describe("explorer in headless Chromium", () => {
  if (!chromiumAvailable) {
    test.skip(`Chromium is not installed at ${CHROMIUM}`, () => {});
    return;
  }
  // biome-ignore lint/suspicious/noExplicitAny: playwright types are loaded lazily
  let browser: any;
  let serve: ServeProcess;
  let w: Watched;
  let ds: ExplorerDataset;
  const dir = tempDir();
  const refused: string[] = [];
  /** What the API says, read with plain calls (they count, as any client's). */
  const api = async <T>(path: string) =>
    (await (await fetch(`${serve.url}/api/v2${path}`)).json()) as Envelope<T>;
  const cells = (page: AnyPage, row: number, table = "main .table-wrap table"): Promise<string[]> =>
    page.evaluate(
      ([r, selector]: [number, string]) =>
        [...(document.querySelector(selector)?.querySelectorAll("tbody tr")[r]?.children ?? [])].map((c) =>
          (c.textContent ?? "").trim(),
        ),
      [row, table],
    );
  const open = async (hash: string, name: string, page: AnyPage = w.page) => {
    await page.goto(`${serve.url}/${hash}`);
    await rendered(page);
    await page.screenshot({ path: screenshotPath(name), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
  };
  /** Every ranked row of a ranking (pages of 100), for the rank line. */
  const wholeRanking = async (query: string) => {
    const rows: { id: number; rank: number }[] = [];
    for (let page = 1; ; page++) {
      const r = await api<{ id: number; rank: number }[]>(`/rankings?limit=100&page=${page}${query}`);
      rows.push(...r.data);
      if (rows.length >= (r.meta.total ?? 0) || r.data.length === 0)
        return { rows, total: r.meta.total ?? 0 };
    }
  };

  beforeAll(async () => {
    ds = await buildExplorerDataset(dir);
    serve = await startServe([
      "--db",
      ds.db,
      "--rate-limit",
      "300",
      "--explorer-views",
      "1000",
      "--explorer-view-calls",
      "30",
    ]);
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
    w = await watchedPage(browser, new URL(serve.url).origin, { acceptDownloads: true });
    w.page.on("response", (r: { status(): number; url(): string }) => {
      if (r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
    });
  }, 240_000);

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
      api<{ name: string; overall_score: number; country: string }[]>("/rankings?limit=1"),
      api<unknown[]>("/distribution?bins=20"),
    ]);
    const stats = await p.$$eval(".stat dd", (els: Element[]) => els.map((e) => e.textContent));
    expect(stats[0]).toBe(all.meta.total?.toLocaleString("en"));
    expect(stats[1]).toBe(dist.meta.measured?.toLocaleString("en"));
    expect(await p.locator("main canvas").count()).toBe(1);
    expect(top.data[0]?.name).toBe(LONG_NAME);
    expect(await cells(p, 0)).toEqual(["1", LONG_NAME, one(top.data[0]?.overall_score), "NL"]);
    expect(await p.locator("figure figcaption").first().textContent()).toContain("20 bins");
  }, 60_000);

  test("navigation: the menu marks the page shown (none on a university), links, back, the score in the URL", async () => {
    await open("", "overview-nav");
    const p = w.page;
    const current = () => p.locator("header nav a[aria-current=page]").allTextContents();
    expect(await current()).toEqual(["Overview"]);
    await p.getByRole("link", { name: "Rankings", exact: true }).click();
    await p.locator("h1", { hasText: "Rankings" }).waitFor();
    await rendered(p);
    expect(new URL(p.url()).hash).toBe("#/rankings");
    expect(await current()).toEqual(["Rankings"]);
    const firstName = (await cells(p, 0, "#ranking table"))[1] ?? "";
    await p.locator("#ranking tbody tr").first().getByRole("link").click();
    await p.locator("h1", { hasText: firstName.slice(0, 40) }).waitFor();
    await rendered(p);
    expect(new URL(p.url()).hash).toMatch(/^#\/university\/\d+$/);
    expect(await current()).toEqual([]);
    await p.goBack();
    await p.locator("h1", { hasText: "Rankings" }).waitFor();
    await rendered(p);
    await p.goto(`${serve.url}/`);
    await rendered(p);
    await p.selectOption("select[name=score]", "tech_ssl_score");
    await p.getByRole("button", { name: "Show" }).click();
    await p.locator("figcaption", { hasText: "TLS certificate score" }).waitFor();
    await rendered(p);
    expect(new URL(p.url()).hash).toBe("#/?score=tech_ssl_score");
  }, 60_000);

  test("rankings: page 2 of the link is the API's page 2", async () => {
    await open("#/rankings?page=2&limit=20", "rankings");
    const rows =
      await api<{ rank: number; name: string; overall_score: number }[]>("/rankings?page=2&limit=20");
    expect(await w.page.locator("#ranking tbody tr").count()).toBe(20);
    expect((await cells(w.page, 0, "#ranking table")).slice(0, 3)).toEqual([
      String(rows.data[0]?.rank),
      rows.data[0]?.name ?? "",
      one(rows.data[0]?.overall_score),
    ]);
    expect(await w.page.locator(".pager").textContent()).toContain(
      `Page 2 of ${Math.ceil((rows.meta.total ?? 0) / 20)}`,
    );
  }, 60_000);

  test("rankings: sort and filters rank as the API does; the selected score comes right after the name", async () => {
    const query = "sort=technical&country=fr&min_score=40&limit=20";
    await open(`#/rankings?${query}`, "rankings-filtered");
    const rows = await api<{ rank: number; name: string; country: string; technical_score: number }[]>(
      `/rankings?${query}`,
    );
    expect(rows.data.length).toBeGreaterThan(0);
    expect(await w.page.locator("#ranking tbody tr").count()).toBe(rows.data.length);
    expect((await cells(w.page, 0, "#ranking table")).slice(0, 4)).toEqual([
      String(rows.data[0]?.rank),
      rows.data[0]?.name ?? "",
      one(rows.data[0]?.technical_score),
      "FR",
    ]);
    expect(await w.page.locator("#ranking thead th").allTextContents()).toEqual([
      "#",
      "University",
      "Technical",
      "Country",
      "Overall",
      "Webometrics",
      "Research",
      "Presence",
    ]);
    expect(await w.page.locator("select[name=sort]").inputValue()).toBe("technical");
    expect(await w.page.locator("select[name=country]").inputValue()).toBe("FR");
    expect(await w.page.locator("input[name=min_score]").inputValue()).toBe("40");
  }, 60_000);

  test("rankings: the country selector lists every country with its number of universities", async () => {
    await open("#/rankings", "rankings-countries");
    const countries = await api<{ country: string; universities: number }[]>("/countries");
    const options: { value: string; text: string }[] = await w.page.$$eval(
      "select[name=country] option",
      (els: HTMLOptionElement[]) => els.map((o) => ({ value: o.value, text: o.text })),
    );
    const total = countries.data.reduce((n, c) => n + c.universities, 0);
    expect(options[0]).toEqual({ value: "", text: `All countries (${total.toLocaleString("en")})` });
    expect(
      options
        .slice(1)
        .map((o) => o.value)
        .sort(),
    ).toEqual(countries.data.map((c) => c.country).sort());
    for (const c of countries.data) {
      const o = options.find((x) => x.value === c.country);
      expect(o?.text).toEndWith(`· ${c.universities.toLocaleString("en")}`);
    }
    expect(options.find((o) => o.value === "NL")?.text).toStartWith("Netherlands (NL)");
  }, 60_000);

  test("rankings: a name search honours the country", async () => {
    await open("#/rankings?search=a&country=is", "rankings-search");
    const [inIceland, everywhere] = await Promise.all([
      api<{ name: string; country: string }[]>("/universities?search=a&country=IS&limit=20"),
      api<unknown[]>("/universities?search=a&limit=1"),
    ]);
    expect(inIceland.data.length).toBeGreaterThan(0);
    expect(everywhere.meta.total).toBeGreaterThan(inIceland.meta.total ?? 0);
    const rows = await w.page.$$eval("#matches tbody tr", (trs: Element[]) =>
      trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? "").trim())),
    );
    expect(rows.map((r: string[]) => r[0])).toEqual(inIceland.data.map((u) => u.name));
    expect(rows.every((r: string[]) => r[1] === "IS")).toBe(true);
    expect(await w.page.locator("#matches caption").textContent()).toContain("in Iceland");
  }, 60_000);

  test("university: the rank line, the history with its latest values, the evidence check by check", async () => {
    await open(`#/university/${ds.universityId}`, "university");
    const p = w.page;
    expect(await p.locator("h1").textContent()).toBe(SCANNED_NAME);
    // The rank among universities measured the same way (the scanner's own site and DNS, beside the demo's
    // imported scores), from the whole ranking of that profile as the API pages it.
    const detail = await api<{ ranking: { profile: string } }>(`/universities/${ds.universityId}`);
    expect(detail.data.ranking.profile).toBe("site");
    const [all, nl] = await Promise.all([
      wholeRanking("&profile=site"),
      wholeRanking("&country=NL&profile=site"),
    ]);
    const rank = all.rows.find((r) => r.id === ds.universityId)?.rank ?? 0;
    const inNl = nl.rows.find((r) => r.id === ds.universityId)?.rank ?? 0;
    expect(rank).toBeGreaterThan(0);
    const line = await p.locator("#rank").textContent();
    expect(line).toContain(`Ranked ${ordinal(rank)} of ${all.total} overall`);
    expect(line).toContain(`${ordinal(inNl)} of ${nl.total} in NL`);
    expect(line).toContain("among universities measured the same way: Own site and DNS.");
    // The history: two scans; the legend shows the latest values without hovering.
    const history = await api<Record<string, number | null>[]>(`/universities/${ds.universityId}/history`);
    const latest = history.data.at(-1) ?? {};
    expect(await p.locator(".legend .lv").allTextContents()).toEqual(
      [
        "overall_score",
        "webo_composite_score",
        "tech_composite_score",
        "research_composite_score",
        "presence_composite_score",
      ].map((s) => one(latest[s])),
    );
    expect(await p.locator(".legend .lh").textContent()).toStartWith("Latest scan");
    // The evidence: the latest scan's checks, by sub-score, failing ones first, with their points.
    const scan = (await api<Scan>(`/scans/${ds.scans[1]}`)).data;
    const checks = scan.evidence.checks;
    expect(checks.length).toBeGreaterThan(20);
    const shown: { id: string; score: string; points: number; max: number; text: string; mark: string }[] =
      await p.$$eval("#evidence tbody tr[data-check]", (trs: HTMLElement[]) =>
        trs.map((tr) => ({
          id: tr.dataset.check ?? "",
          score: (tr.closest("tbody") as HTMLElement).dataset.score ?? "",
          points: Number(tr.dataset.points),
          max: Number(tr.dataset.max),
          text: (tr.querySelector(".points")?.textContent ?? "").trim(),
          mark: (tr.querySelector(".mark .word")?.textContent ?? "").trim().toLowerCase(),
        })),
      );
    const key = (c: { score: string; id: string; points: number; max: number }) =>
      `${c.score} ${c.id} ${c.points} ${c.max}`;
    expect(shown.map(key).sort()).toEqual(checks.map(key).sort());
    for (const row of shown) {
      expect(row.text).toBe(points(row));
      expect(row.mark).toBe(result(row));
    }
    const order = { fail: 0, partial: 1, pass: 2 } as const;
    for (const score of new Set(shown.map((r) => r.score))) {
      const results = shown.filter((r) => r.score === score).map((r) => order[result(r)]);
      expect(results).toEqual([...results].sort((a, b) => a - b));
    }
    // Group headings are the catalogue's labels.
    const headings = await p.locator("#evidence .group-row .nm").allTextContents();
    expect(headings).toContain(label("tech_security_headers_score"));
    // A grade shows exactly when the evidence carries one.
    const { observations: _, ...rest } = scan.evidence;
    const carriesGrade = /"[a-z_]*grade[a-z_]*"\s*:/i.test(JSON.stringify(rest));
    expect(await p.locator("#grade").count()).toBe(carriesGrade ? 1 : 0);
    expect(
      await p.locator("a", { hasText: "What changed since the previous scan" }).first().getAttribute("href"),
    ).toBe(`#/diff?a=${ds.scans[0]}&b=${ds.scans[1]}`);
  }, 120_000);

  test("history: the time axis spans the scans, one scan or several within a day sit inside a month", async () => {
    const p = w.page;
    const day = 86_400;
    for (const id of [ds.singleId, ds.universityId, ds.longId]) {
      await p.goto(`${serve.url}/#/university/${id}`);
      await rendered(p);
      const history = await api<{ completed_at: string }[]>(`/universities/${id}/history`);
      const times = history.data.map((e) => Date.parse(e.completed_at) / 1000);
      const first = times[0] ?? 0;
      const last = times.at(-1) ?? 0;
      const [min, max] = ((await p.locator("#history-h ~ figure .plot").getAttribute("data-x-range")) ?? "")
        .split(",")
        .map(Number);
      const span = last - first;
      const pad = span < day ? 15 * day : span * 0.04;
      expect([`${id}`, Math.round(min ?? 0), Math.round(max ?? 0)]).toEqual([
        `${id}`,
        Math.round(first - pad),
        Math.round(last + pad),
      ]);
    }
    expect(await p.locator(".legend .lh").textContent()).toStartWith("Latest scan");
  }, 60_000);

  test("what changed: from the history to the diff, the removed header's checks with their points before and after", async () => {
    const p = w.page;
    await p.goto(`${serve.url}/#/university/${ds.universityId}`);
    await rendered(p);
    await p.locator("#history-h ~ p a").click();
    await p.locator("h1", { hasText: "What changed" }).waitFor();
    await rendered(p);
    expect(new URL(p.url()).hash).toBe(`#/diff?a=${ds.scans[0]}&b=${ds.scans[1]}`);
    await p.screenshot({ path: screenshotPath("diff"), fullPage: true });
    expect(await axeViolations(p)).toEqual([]);
    // What changed, worked out here from the two scans' evidence.
    const [a, b] = await Promise.all(ds.scans.map((id) => api<Scan>(`/scans/${id}`)));
    const before = new Map((a?.data.evidence.checks ?? []).map((c) => [`${c.score} ${c.id}`, c]));
    const changed = (b?.data.evidence.checks ?? []).filter((c) => {
      const old = before.get(`${c.score} ${c.id}`);
      return !old || old.points !== c.points || old.max !== c.max;
    });
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.some((c) => c.score === "tech_security_headers_score")).toBe(true);
    const rows: { id: string; cells: string[] }[] = await p.$$eval(
      "#check-changes tbody tr",
      (trs: HTMLElement[]) =>
        trs.map((tr) => ({
          id: tr.dataset.check ?? "",
          cells: [...tr.children].map((c) => (c.querySelector(".side") ?? c).textContent?.trim() ?? ""),
        })),
    );
    expect(rows.map((r) => r.id).sort()).toEqual(changed.map((c) => c.id).sort());
    for (const c of changed) {
      const row = rows.find((r) => r.id === c.id);
      const old = before.get(`${c.score} ${c.id}`);
      expect(row?.cells[0]).toBe(c.label);
      expect(row?.cells[2]).toContain(old ? points(old) : "not checked");
      expect(row?.cells[3]).toContain(points(c));
      expect(row?.cells[4]).toBe(label(c.score));
    }
  }, 120_000);

  test("what changed: linked from each regressions row; scans without evidence say so", async () => {
    await open("#/regressions?days=3&min_drop=0.5&category=overall", "regressions");
    const p = w.page;
    const drops = await api<
      {
        university: { id: number; name: string };
        drop: number;
        previous: { scan_id: number };
        current: { scan_id: number };
      }[]
    >("/regressions?days=3&min_drop=0.5&category=overall&limit=100");
    expect(await p.locator("#regressions tbody tr").count()).toBe(drops.data.length);
    const first = await cells(p, 0, "#regressions table");
    expect(first.slice(0, 2)).toEqual([
      drops.data[0]?.university.name ?? "",
      `−${drops.data[0]?.drop.toFixed(1)}`,
    ]);
    const i = drops.data.findIndex((d) => d.university.name === LONG_NAME);
    expect(i).toBeGreaterThanOrEqual(0);
    const target = drops.data[i];
    const linkEl = p
      .locator("#regressions tbody tr")
      .nth(i)
      .getByRole("link", { name: /Scores and checks/ });
    expect(await linkEl.getAttribute("href")).toBe(
      `#/diff?a=${target?.previous.scan_id}&b=${target?.current.scan_id}`,
    );
    await linkEl.click();
    await p.locator("h1", { hasText: "What changed" }).waitFor();
    await rendered(p);
    expect(await cells(p, 0, "#score-changes table")).toEqual(["Overall", "−0.5", "100.0", "99.5"]);
    expect(await p.locator("#check-changes").textContent()).toContain("not available");
  }, 60_000);

  test("compare: “Compare with…” opens with the university chosen and the search focused; found by name", async () => {
    const p = w.page;
    await p.goto(`${serve.url}/#/university/${ds.universityId}`);
    await rendered(p);
    await p.getByRole("link", { name: "Compare with…" }).click();
    await p.locator("h1", { hasText: "Compare" }).waitFor();
    await rendered(p);
    expect(new URL(p.url()).hash).toBe(`#/compare?ids=${ds.universityId}`);
    expect(await p.evaluate(() => document.activeElement?.id)).toBe("compare-search");
    expect(await p.locator(".chosen li a").first().textContent()).toBe(SCANNED_NAME);
    const other = (await api<{ id: number; name: string }[]>("/rankings?limit=2")).data[1];
    await p.keyboard.type((other?.name ?? "").slice(0, 10));
    const add = p.getByRole("button", { name: `Add ${other?.name}` });
    await add.waitFor();
    await add.click();
    await p.waitForFunction(
      (ids: string) => location.hash === `#/compare?ids=${ids}`,
      `${ds.universityId},${other?.id}`,
    );
    await rendered(p);
    expect(await p.evaluate(() => document.activeElement?.id)).toBe("compare-search");
    await p.screenshot({ path: screenshotPath("compare"), fullPage: true });
    expect(await axeViolations(p)).toEqual([]);
    expect(await p.locator("main canvas").count()).toBe(1);
    expect(await p.locator("#comparison thead th").allTextContents()).toEqual([
      "Score",
      SCANNED_NAME,
      other?.name,
    ]);
    const compared = await api<{ scores: Record<string, number | null> }[]>(
      `/compare?ids=${ds.universityId},${other?.id}`,
    );
    expect(await cells(p, 0, "#comparison table")).toEqual([
      "Overall",
      ...compared.data.map((e) => one(e.scores.overall_score)),
    ]);
    const [download] = await Promise.all([
      p.waitForEvent("download"),
      p.locator("button[data-format=json]").click(),
    ]);
    expect(download.suggestedFilename()).toBe(`unirank-compare-${ds.universityId}-${other?.id}.json`);
    expect(JSON.parse(readFileSync(await download.path(), "utf8"))).toEqual(compared.data);
  }, 60_000);

  test("downloads: the rankings page as CSV and JSON hold the rows shown", async () => {
    await open("#/rankings?limit=20&page=3", "rankings-download");
    const p = w.page;
    const rows = await api<Record<string, unknown>[]>("/rankings?limit=20&page=3");
    const [csv] = await Promise.all([
      p.waitForEvent("download"),
      p.locator("button[data-format=csv]").click(),
    ]);
    expect(csv.suggestedFilename()).toBe("unirank-rankings-overall-page-3.csv");
    const parsed = parse(readFileSync(await csv.path(), "utf8"), { columns: true }) as Record<
      string,
      string
    >[];
    expect(parsed.length).toBe(20);
    expect(parsed.map((r) => Number(r.id))).toEqual(rows.data.map((r) => Number(r.id)));
    expect(parsed[0]?.name).toBe(String(rows.data[0]?.name));
    const [json] = await Promise.all([
      p.waitForEvent("download"),
      p.locator("button[data-format=json]").click(),
    ]);
    expect(JSON.parse(readFileSync(await json.path(), "utf8"))).toEqual(rows.data);
  }, 60_000);

  test("leaderboards: the catalogue's labels, never a key; the API's first rows", async () => {
    await open("#/leaderboards?category=security", "leaderboards");
    const p = w.page;
    const board = await api<{ rank: number; university: { name: string }; score: number }[]>(
      "/leaderboard/security?limit=25",
    );
    expect((await cells(p, 0, "#leaderboard table")).slice(0, 3)).toEqual([
      String(board.data[0]?.rank),
      board.data[0]?.university.name ?? "",
      one(board.data[0]?.score),
    ]);
    expect(await p.locator(".tabs a").allTextContents()).toEqual(
      CATEGORY_NAMES.map((c) => label(CATEGORIES[c])),
    );
    expect(await p.locator(".tabs a[aria-current=page]").textContent()).toBe(
      label("tech_security_headers_score"),
    );
    for (const hash of [
      "#/leaderboards?category=ssl",
      "#/regressions?category=i18n",
      "#/rankings?sort=presence",
    ]) {
      await p.goto(`${serve.url}/${hash}`);
      await rendered(p);
      const text = (await p.locator("main").textContent()) ?? "";
      expect(text).not.toMatch(/\b(Ssl|I18n|Seo|ssl|i18n)\b|\(Overall\)|_score/);
    }
  }, 60_000);

  test("methodology: every check with its points, the composite weights and the profile rule, from the API", async () => {
    await open("#/methodology", "methodology");
    const p = w.page;
    const m = (
      await api<{
        checks: { id: string; score: string; max: number | null }[];
        sub_scores: { name: string }[];
        composites: { label: string; weight: number }[];
        profiles: { rule: string; parts: { label: string }[] };
      }>("/methodology")
    ).data;
    const shown: [string, string][] = await p.$$eval("#checks tbody tr[data-check]", (trs: HTMLElement[]) =>
      trs.map((tr) => [tr.dataset.check ?? "", (tr.children[1]?.textContent ?? "").trim()]),
    );
    const expected = m.sub_scores.flatMap((s) =>
      m.checks
        .filter((c) => c.score === s.name)
        .map((c): [string, string] => [c.id, c.max === null ? "varies" : String(c.max)]),
    );
    expect(shown).toEqual(expected);
    expect(shown.length).toBe(m.checks.length);
    expect(
      await p.$$eval("#composites tbody tr", (trs: HTMLElement[]) =>
        trs.map((tr) => [...tr.children].slice(0, 2).map((c) => (c.textContent ?? "").trim())),
      ),
    ).toEqual(m.composites.map((c) => [c.label, `${Math.round(c.weight * 100)} %`]));
    expect(await p.locator("#profile-rule").textContent()).toBe(m.profiles.rule);
    expect(await p.locator("#parts tbody th").allTextContents()).toEqual(
      m.profiles.parts.map((x) => x.label),
    );
    expect(await p.locator("header nav a[aria-current=page]").textContent()).toBe("Methodology");
    const text = (await p.locator("main").textContent()) ?? "";
    expect(text).not.toMatch(/_score/);
  }, 60_000);

  test("rankings: the universities measured the same way, and links to those measured otherwise", async () => {
    await open("#/rankings", "rankings-profiles");
    const p = w.page;
    const meta = (await api<unknown>("/rankings?limit=1")).meta as unknown as {
      profile: string;
      profiles: Record<string, number>;
    };
    expect(meta.profile).toBe("unknown");
    expect(meta.profiles.site).toBe(1);
    const note = (await p.locator("#profile-note").textContent()) ?? "";
    expect(note).toContain("Ranked among universities measured the same way: not measured by unirank");
    expect(note).toContain("Measured otherwise: Own site and DNS (1 university)");
    await p.locator("#profile-note a", { hasText: "Own site and DNS" }).click();
    // The click changes the hash and the page renders again after it: wait for the new page, not the old one.
    await p.waitForFunction(
      () => document.getElementById("profile-note")?.textContent?.includes("the same way: Own site and DNS"),
      null,
      { timeout: 20_000 },
    );
    await rendered(p);
    expect(p.url()).toContain("profile=site");
    expect(await cells(p, 0, "#ranking table")).toContain(SCANNED_NAME);
    expect(await p.locator("#profile-note").textContent()).toContain(
      "Ranked among universities measured the same way: Own site and DNS",
    );
  }, 60_000);

  const PAGES = (): [string, string][] => [
    ["overview", ""],
    ["rankings", "#/rankings?country=nl&search=uni"],
    ["university", `#/university/${ds.universityId}`],
    ["long-name", `#/university/${ds.longId}`],
    ["diff", `#/diff?a=${ds.scans[0]}&b=${ds.scans[1]}`],
    ["compare", `#/compare?ids=${ds.universityId},${ds.longId},1,2`],
    ["leaderboards", "#/leaderboards?category=ssl"],
    ["regressions", "#/regressions?days=3&min_drop=0.5"],
    ["methodology", "#/methodology"],
  ];

  for (const scheme of ["light", "dark"] as const) {
    test(`a phone (390 px, ${scheme}): no page scrolls sideways; every table shows its name and main score`, async () => {
      const phone = await watchedPage(browser, new URL(serve.url).origin, {
        viewport: { width: 390, height: 844 },
        colorScheme: scheme,
      });
      let mains = 0;
      for (const [name, hash] of PAGES()) {
        await open(hash, `${name}-390-${scheme}`, phone.page);
        expect(`${name} ${await phone.page.evaluate(() => document.documentElement.scrollWidth)}`).toBe(
          `${name} 390`,
        );
        const boxes: { table: string; what: string; left: number; right: number }[] =
          await phone.page.evaluate(() =>
            [...document.querySelectorAll("main table")]
              .filter((t) => !t.closest("details:not([open])") && t.querySelector("tbody tr"))
              .flatMap((t, i) => {
                const row = t.querySelector("tbody tr:not(.group-row)");
                return (["name", "main"] as const).flatMap((what) => {
                  const cell = row?.querySelector(`.${what}`);
                  if (!cell) return [];
                  const r = cell.getBoundingClientRect();
                  return [
                    {
                      table: t.closest(".table-wrap")?.id || `table ${i}`,
                      what,
                      left: r.left,
                      right: r.right,
                    },
                  ];
                });
              }),
          );
        mains += boxes.filter((b) => b.what === "main").length;
        for (const b of boxes)
          expect(`${name} ${b.table} ${b.what} ${b.left >= 0 && b.right <= 390}`).toBe(
            `${name} ${b.table} ${b.what} true`,
          );
      }
      // Every page but the long-named university's (imported scans: no evidence table) has a table with a main
      // score; the overview's drops of the last 30 days depend on the demo's dates.
      expect(mains).toBeGreaterThanOrEqual(7);
      expect(phone.external).toEqual([]);
      expect(phone.errors).toEqual([]);
      await phone.page.close();
    }, 240_000);
  }

  test("a wide screen (1366 px), dark and light: every page without a serious or critical axe finding", async () => {
    const dark = await watchedPage(browser, new URL(serve.url).origin, {
      viewport: { width: 1366, height: 900 },
      colorScheme: "dark",
    });
    for (const [name, hash] of PAGES()) await open(hash, `${name}-1366-dark`, dark.page);
    for (const [name, hash] of PAGES()) await open(hash, `${name}-1366-light`, w.page);
    expect(dark.external).toEqual([]);
    expect(dark.errors).toEqual([]);
    await dark.page.close();
  }, 240_000);

  test("the operator's settings reach the page: a view's token admits 30 calls", async () => {
    const view = await api<{ calls: number }>("/explorer/view");
    expect(view.data.calls).toBe(30);
  });

  test("nothing was asked of another host, no console error, and no call was refused", () => {
    expect(w.external).toEqual([]);
    expect(w.errors).toEqual([]);
    expect(refused).toEqual([]);
    expect(w.apiCalls.length).toBeGreaterThan(20);
  });
});

describe("explorer at the anonymous limit", () => {
  if (!chromiumAvailable) {
    test.skip(`Chromium is not installed at ${CHROMIUM}`, () => {});
    return;
  }
  test("a spent hour says when to come back, in words", async () => {
    const dir = tempDir();
    const serve = await startServe(["--db", `${dir}/demo.db`, "--rate-limit", "2"]);
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
    try {
      const w = await watchedPage(browser, new URL(serve.url).origin);
      for (const hash of ["#/leaderboards", "#/regressions"]) {
        await w.page.goto(`${serve.url}/${hash}`);
        await rendered(w.page);
        expect(await w.page.locator("#problem").count()).toBe(0);
      }
      await w.page.goto(`${serve.url}/#/rankings`);
      await rendered(w.page);
      const problem = await w.page.locator("#problem").textContent();
      expect(problem).toMatch(
        /limit for anonymous use is reached \(2 an hour from one address\)\. Try again in (60|59) minutes\./,
      );
      await w.page.screenshot({ path: screenshotPath("rate-limited"), fullPage: true });
      expect(await axeViolations(w.page)).toEqual([]);
    } finally {
      await browser.close();
      await serve.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
