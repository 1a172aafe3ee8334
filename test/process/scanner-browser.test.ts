import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { BROWSER_SCORES, type BrowserObservations } from "../../lib/scanner/index.ts";
import { type BrowserPart, browserPart } from "../../src/scanner/browser/browser-part.ts";
import { CHROMIUM_ARGS, launchChromium, OMNIBOX_WEBUI_FEATURES } from "../../src/scanner/browser/chromium.ts";
import { RESOLVE_PROXY_ONLY } from "../../src/scanner/browser/pinned-proxy.ts";
import { Slots } from "../../src/scanner/browser/slots.ts";
import { guardedLookup } from "../../src/scanner/scan-context.ts";
import { type BrowserFixtures, startBrowserFixtures } from "../support/browser-fixtures.ts";

/**
 * The browser part in Debian's Chromium against loopback fixture pages. Timings vary with the machine's load, so
 * measured values are checked against sane ranges and the deterministic parts (layout, accessibility, blocking)
 * exactly. Skips, saying so, only where Chromium cannot start.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ctx = { userAgent: "unirank/0.1 (+https://example.org/contact)" };

/** PIDs of the Chromium browser processes (not their helpers) this test process started. */
function chromiumBrowsers(): number[] {
  const pids: number[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1]?.split(" ")[1]);
      const cmd = readFileSync(`/proc/${d}/cmdline`, "utf8");
      if (ppid === process.pid && cmd.includes("--remote-debugging-pipe") && !cmd.includes("--type="))
        pids.push(Number(d));
    } catch {}
  }
  return pids;
}
/** A scan's context whose resolver answers for the site (no DNS is asked). */
const reachable = { ...ctx, address: async () => "192.0.2.1" };

let startError: string | null = null;
if (!existsSync(CHROMIUM)) startError = `no Chromium at ${CHROMIUM}`;
else {
  try {
    await (await launchChromium(CHROMIUM, 30_000)).close();
  } catch (error) {
    startError = String(error);
  }
}
if (startError) {
  console.warn(
    `[unirank tests] scanner-browser is skipped: ${startError} (apt-get install -y chromium, or set CHROMIUM_PATH)`,
  );
}

describe("browser part without a usable Chromium", () => {
  test("no Chromium configured → the five sub-scores null with the reason", async () => {
    const r = await browserPart({})({ domain: "example.edu" }, ctx);
    expect(Object.keys(r.scores).sort()).toEqual([...BROWSER_SCORES].sort());
    expect(Object.values(r.scores).every((v) => v === null)).toBe(true);
    expect(r.unmeasured.tech_accessibility_score).toBe(
      "no Chromium configured (--chromium or CHROMIUM_PATH)",
    );
    expect(r.checks).toEqual([]);
  });
  test("a missing executable and one that exits at once are reasons, not crashes", async () => {
    const missing = browserPart({ chromiumPath: "/nonexistent/chromium" });
    const r = await missing({ domain: "example.edu" }, reachable);
    expect(r.scores.tech_speed_mobile_score).toBeNull();
    expect(r.unmeasured.tech_speed_mobile_score).toStartWith(
      "Chromium at /nonexistent/chromium could not start",
    );
    await missing.close();

    const dir = mkdtempSync(join(tmpdir(), "unirank-fake-chromium-"));
    const fake = join(dir, "chromium");
    writeFileSync(fake, "#!/bin/sh\necho 'this is not a browser' >&2\nexit 3\n");
    chmodSync(fake, 0o755);
    try {
      const broken = browserPart({ chromiumPath: fake });
      const b = await broken({ domain: "example.edu" }, reachable);
      expect(b.unmeasured.tech_core_web_vitals_score).toStartWith(`Chromium at ${fake} could not start`);
      await broken.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("browser part plumbing", () => {
  test("slots: one university at a time by default; a waiting scan that is aborted leaves the queue", async () => {
    const slots = new Slots(1);
    expect(await slots.acquire()).toBe(true);
    let second = false;
    const waiting = slots.acquire().then((ok) => (second = ok));
    const controller = new AbortController();
    const third = slots.acquire(controller.signal);
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(second).toBe(false);
    controller.abort();
    expect(await third).toBe(false);
    slots.release();
    await waiting;
    expect(second).toBe(true);
    slots.release();
    expect(await slots.acquire()).toBe(true); // the aborted waiter did not take the freed slot
  });
  test("Chromium's resolver knows the proxies' name only; every other name, address literals too, fails", () => {
    expect(RESOLVE_PROXY_ONLY).toBe(
      "--host-resolver-rules=MAP unirank-proxy.invalid 127.0.0.1 , MAP * ~NOTFOUND",
    );
  });
});

describe("Chromium's flags", () => {
  if (startError) {
    test.skip(`Chromium cannot start: ${startError}`, () => {});
    return;
  }
  /** The features a Chromium turns off: the last `--disable-features` of its command line (it keeps only that one). */
  const disabledFeatures = async (browser: Browser): Promise<Set<string>> => {
    const cdp = await browser.newBrowserCDPSession();
    const { arguments: args } = (await cdp.send("Browser.getBrowserCommandLine" as never)) as {
      arguments: string[];
    };
    const last = args.filter((a) => a.startsWith("--disable-features=")).at(-1) ?? "";
    return new Set(last.slice("--disable-features=".length).split(",").filter(Boolean));
  };

  test("a page opened by the scanner has no omnibox WebUI beside it", async () => {
    const browser = await launchChromium(CHROMIUM);
    try {
      const cdp = await browser.newBrowserCDPSession();
      const context = await browser.newContext();
      await (await context.newPage()).goto("data:text/html,<h1>University</h1>");
      const { targetInfos } = (await cdp.send("Target.getTargets")) as {
        targetInfos: { type: string; url: string }[];
      };
      const targets = targetInfos.map((t) => `${t.type} ${t.url}`);
      expect(targets).toContain("page data:text/html,<h1>University</h1>");
      // No page of the browser's own interface (`browser_ui`, `chrome://…top-chrome/`), whatever its name.
      expect(targets.filter((t) => t.startsWith("browser_ui") || t.includes("chrome://"))).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
    }
  });

  test("the scanner's --disable-features keeps every feature Playwright itself turns off", async () => {
    // --enable-automation only so that Chromium tells its command line.
    const { chromium } = await import("playwright-core");
    const plain = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--enable-automation"],
    });
    const playwrights = await disabledFeatures(plain).finally(() => plain.close());
    expect(playwrights.size).toBeGreaterThan(5);
    const ours = await launchChromium(CHROMIUM, 30_000, ["--enable-automation"]);
    const scanners = await disabledFeatures(ours).finally(() => ours.close());
    expect([...playwrights].filter((f) => !scanners.has(f))).toEqual([]);
    expect([...OMNIBOX_WEBUI_FEATURES].filter((f) => !scanners.has(f))).toEqual([]);
    expect(CHROMIUM_ARGS.filter((a) => a.startsWith("--disable-features=")).length).toBe(1);
  });
});

describe("browser part in Chromium", () => {
  if (startError) {
    test.skip(`Chromium cannot start: ${startError}`, () => {});
    return;
  }
  let fixtures: BrowserFixtures;
  let part: BrowserPart;
  const measure = async (name: "light" | "heavy" | "a11y" | "noviewport") => {
    const r = await part({ domain: fixtures.domain(name) }, ctx);
    expect(r.unmeasured).toEqual({});
    return { ...r, o: r.observations as BrowserObservations };
  };

  beforeAll(async () => {
    fixtures = await startBrowserFixtures();
    part = browserPart({
      chromiumPath: CHROMIUM,
      homeUrl: (d) => `http://${d}/`,
      lookup: guardedLookup({ resolver: fixtures.resolver, allowPrivateTargets: true }),
    });
  });
  afterAll(async () => {
    await part?.close();
    await fixtures?.stop();
  });

  test("a light page: fast on both form factors, mobile-friendly and accessible", async () => {
    const r = await measure("light");
    expect(r.o.desktop.fcpMs).toBeGreaterThan(0);
    expect(r.o.desktop.fcpMs!).toBeLessThan(3_000);
    expect(r.o.mobile.fcpMs!).toBeGreaterThan(500); // one request at 562.5 ms of added latency
    expect(r.o.mobile.cls).toBe(0);
    expect(r.o.desktop.bytes).toBeGreaterThan(500);
    expect(r.o.desktop.bytes).toBeLessThan(5_000);
    expect(r.scores.tech_speed_desktop_score!).toBeGreaterThanOrEqual(75);
    expect(r.scores.tech_speed_mobile_score!).toBeGreaterThanOrEqual(65);
    expect(r.scores.tech_mobile_friendly_score).toBe(100);
    expect(r.scores.tech_accessibility_score).toBe(100);
    expect(r.o.layout.viewport).toBe("width=device-width, initial-scale=1");
    expect(r.o.layout.layoutWidth).toBe(412);
    expect(r.o.blocked).toEqual([]);
    expect(r.checks.length).toBeGreaterThanOrEqual(17);
  }, 90_000);

  test("a heavy page: late paint, blocking scripts, layout shift, another host blocked and recorded", async () => {
    const r = await measure("heavy");
    expect(r.o.desktop.fcpMs!).toBeGreaterThanOrEqual(1_200); // the stylesheet arrives after 1.2 s
    expect(r.o.desktop.tbtMs).toBeGreaterThanOrEqual(500); // six 250 ms tasks after load
    expect(r.o.mobile.tbtMs).toBeGreaterThanOrEqual(r.o.desktop.tbtMs * 0.8); // a 4× slower CPU
    expect(r.o.mobile.cls).toBeGreaterThan(0.1);
    expect(r.o.desktop.bytes).toBeGreaterThan(525_000);
    expect(r.o.mobile.lcpMs!).toBeGreaterThan(2_500);
    expect(r.scores.tech_speed_desktop_score!).toBeLessThanOrEqual(70);
    expect(r.scores.tech_speed_mobile_score!).toBeLessThanOrEqual(60);
    expect(r.scores.tech_core_web_vitals_score!).toBeLessThanOrEqual(50);
    const tracker = `http://tracker.localhost:${fixtures.port}/t.js`;
    expect(r.o.blocked).toEqual([tracker]);
    expect(r.o.blockedCount).toBe(2); // once per form factor
    expect(fixtures.requests.has("tracker.localhost")).toBe(false);
    expect(fixtures.strayConnections()).toBe(0); // WebSockets pass request interception; the resolver stops them
  }, 120_000);

  test("a page with accessibility violations: the failing WCAG rules, weighted by impact", async () => {
    const r = await measure("a11y");
    const failed = r.o.accessibility.filter((x) => !x.passed).map((x) => x.id);
    for (const id of [
      "image-alt",
      "button-name",
      "link-name",
      "html-has-lang",
      "document-title",
      "color-contrast",
      "label",
    ]) {
      expect(failed).toContain(id);
    }
    expect(r.o.accessibility.find((x) => x.id === "image-alt")).toMatchObject({
      impact: "critical",
      nodes: 1,
    });
    const w = { critical: 10, serious: 7, moderate: 3, minor: 1 };
    let passed = 0;
    let total = 0;
    for (const x of r.o.accessibility) {
      total += w[x.impact];
      if (x.passed) passed += w[x.impact];
    }
    expect(r.scores.tech_accessibility_score).toBe(Math.round((1000 * passed) / total) / 10);
    expect(r.scores.tech_accessibility_score!).toBeLessThan(60);
    expect(r.checks.find((c) => c.id === "a11y.image-alt")).toMatchObject({ points: 0, max: 10 });
  }, 90_000);

  test("a page without a viewport: laid out 980 px wide on a 412 px phone, small text, crowded links", async () => {
    const r = await measure("noviewport");
    expect(r.o.layout.viewport).toBeNull();
    expect(r.o.layout.layoutWidth).toBe(980);
    expect(r.o.layout.deviceWidth).toBe(412);
    expect(r.o.layout.tapTargets.length).toBe(30);
    expect(r.scores.tech_mobile_friendly_score).toBe(10);
    expect(r.checks.find((c) => c.id === "mobile.viewport")).toMatchObject({ points: 0, max: 30 });
  }, 90_000);

  test("a site that does not answer, one that redirects away and an aborted scan: null with the reason", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = closed.port;
    closed.stop(true);
    const r = await part({ domain: `down.localhost:${port}` }, ctx);
    expect(r.scores.tech_speed_desktop_score).toBeNull();
    expect(r.unmeasured.tech_speed_desktop_score).toStartWith("the home page did not load in Chromium");
    const moved = await part({ domain: fixtures.domain("moved") }, ctx);
    expect(moved.unmeasured.tech_mobile_friendly_score).toBe(
      `the home page leads to another host, not measured: http://elsewhere.localhost:${fixtures.port}/`,
    );
    expect(fixtures.requests.has("elsewhere.localhost")).toBe(false);
    const controller = new AbortController();
    controller.abort();
    const aborted = await part({ domain: fixtures.domain("light") }, { ...ctx, signal: controller.signal });
    expect(aborted.unmeasured.tech_accessibility_score).toBe("the scan was aborted");
  }, 90_000);

  test("called without any flag, the browser part loads no loopback site", async () => {
    const before = fixtures.requests.get("light.localhost")?.length ?? 0;
    const bare = browserPart({
      chromiumPath: CHROMIUM,
      homeUrl: (d) => `http://${d}/`,
      lookup: guardedLookup({}),
    });
    const r = await bare({ domain: fixtures.domain("light") }, ctx);
    expect(r.scores.tech_speed_desktop_score).toBeNull();
    expect(r.unmeasured.tech_speed_desktop_score).toStartWith("the home page is not loaded: ");
    // With the scanner's resolver but no private targets allowed: refused by the address guard.
    const guarded = browserPart({
      chromiumPath: CHROMIUM,
      homeUrl: (d) => `http://${d}/`,
      lookup: guardedLookup({ resolver: fixtures.resolver }),
    });
    const g = await guarded({ domain: fixtures.domain("light") }, ctx);
    expect(g.unmeasured.tech_accessibility_score).toBe(
      "the home page is not loaded: refused: light.localhost resolves to 127.0.0.1, a loopback, private or reserved address (allow with --allow-private-targets)",
    );
    expect(fixtures.requests.get("light.localhost")?.length ?? 0).toBe(before);
    await Promise.all([bare.close(), guarded.close()]);
  }, 60_000);

  test("Chromium reaches the site's hosts at the scanner's answers only, the guard on every address", async () => {
    // Loopback is allowed here (the fixtures live there); link-local and private addresses are not.
    const pinned = browserPart({
      chromiumPath: CHROMIUM,
      homeUrl: (d) => `http://${d}/`,
      lookup: guardedLookup({
        resolver: fixtures.resolver,
        privateAllowed: (address) => address.startsWith("127."),
      }),
    });
    const strayBefore = fixtures.strayConnections();
    // Another university first: the same Chromium then serves the pinned one, through a proxy of its own.
    expect((await pinned({ domain: fixtures.domain("light") }, ctx)).unmeasured).toEqual({});
    const r = await pinned({ domain: fixtures.domain("pinned") }, ctx);
    expect(pinned.launches()).toBe(1);
    await pinned.close();
    expect(r.unmeasured).toEqual({});
    const o = r.observations as BrowserObservations;
    // cdn.pinned.test is known to the scanner's resolver only: Chromium went there at its answer.
    expect(fixtures.requests.get("cdn.pinned.test")).toContain("/hero.bmp");
    expect(o.blocked.sort()).toEqual([
      `http://intra.pinned.test:${fixtures.port}/admin`,
      `http://meta.pinned.test:${fixtures.port}/latest/meta-data`,
    ]);
    expect(fixtures.requests.has("meta.pinned.test")).toBe(false);
    expect(fixtures.requests.has("intra.pinned.test")).toBe(false);
    // A WebSocket to an address literal passes request interception; the proxy refuses it.
    expect(fixtures.strayConnections()).toBe(strayBefore);
  }, 120_000);

  test("one Chromium serves university after university; a crashed one is replaced", async () => {
    const shared = browserPart({
      chromiumPath: CHROMIUM,
      homeUrl: (d) => `http://${d}/`,
      lookup: guardedLookup({ resolver: fixtures.resolver, allowPrivateTargets: true }),
      universitiesPerChromium: 3,
    });
    try {
      const before = chromiumBrowsers();
      for (const name of ["light", "noviewport"] as const) {
        expect((await shared({ domain: fixtures.domain(name) }, ctx)).unmeasured).toEqual({});
      }
      expect(shared.launches()).toBe(1);
      const running = chromiumBrowsers().filter((pid) => !before.includes(pid));
      expect(running.length).toBe(1);
      process.kill(running[0] as number, "SIGKILL");
      await Bun.sleep(200);
      const after = await shared({ domain: fixtures.domain("light") }, ctx);
      expect(after.unmeasured).toEqual({});
      expect(shared.launches()).toBe(2);
      // Three universities a Chromium: the fourth goes to a new one.
      await shared({ domain: fixtures.domain("light") }, ctx);
      await shared({ domain: fixtures.domain("light") }, ctx);
      expect(shared.launches()).toBe(2);
      await shared({ domain: fixtures.domain("light") }, ctx);
      expect(shared.launches()).toBe(3);
    } finally {
      await shared.close();
    }
  }, 180_000);

  test("a Chromium that crashes under a university is replaced and the university measured again", async () => {
    const shared = browserPart({
      chromiumPath: CHROMIUM,
      homeUrl: (d) => `http://${d}/`,
      lookup: guardedLookup({ resolver: fixtures.resolver, allowPrivateTargets: true }),
    });
    try {
      const before = chromiumBrowsers();
      const measuring = shared({ domain: fixtures.domain("heavy") }, ctx);
      let running: number[] = [];
      for (let i = 0; i < 100 && running.length === 0; i++) {
        await Bun.sleep(100);
        running = chromiumBrowsers().filter((pid) => !before.includes(pid));
      }
      await Bun.sleep(1_500); // the heavy page is loading
      process.kill(running[0] as number, "SIGKILL");
      const r = await measuring;
      expect(r.unmeasured).toEqual({});
      expect(shared.launches()).toBe(2);
    } finally {
      await shared.close();
    }
  }, 180_000);

  test("in a scan, the part takes the scan's own answers (context.address)", async () => {
    const asked: string[] = [];
    const scanAddress = async (host: string) => {
      asked.push(host);
      if (host === "light.localhost") return "127.0.0.1";
      throw new Error(`cannot resolve ${host}: no A record`);
    };
    // The part's own settings would refuse loopback: the scan's answer is what counts.
    const inScan = browserPart({
      chromiumPath: CHROMIUM,
      homeUrl: (d) => `http://${d}/`,
      lookup: guardedLookup({ resolver: fixtures.resolver }),
    });
    const r = await inScan({ domain: fixtures.domain("light") }, { ...ctx, address: scanAddress });
    await inScan.close();
    expect(r.unmeasured).toEqual({});
    expect(asked).toContain("light.localhost");
  }, 90_000);
});
