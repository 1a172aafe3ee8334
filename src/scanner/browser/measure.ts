import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import type { MobileLayout, PageTimings } from "../../../lib/scanner/index.ts";
import { OBSERVERS_SCRIPT, readLayout, readTimings, waitForQuiet } from "./page-scripts.ts";

/** A device and connection as Lighthouse emulates them (its devtools throttling values). */
export interface Profile {
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  mobile: boolean;
  /** Added round-trip latency (ms), throughput (bytes/s) and CPU slowdown. */
  latencyMs: number;
  downloadBps: number;
  uploadBps: number;
  cpuSlowdown: number;
}

/** Desktop: 1350×940, 40 ms, 10 Mbit/s, full CPU. */
export const DESKTOP: Profile = {
  viewport: { width: 1350, height: 940 },
  deviceScaleFactor: 1,
  mobile: false,
  latencyMs: 40,
  downloadBps: (10 * 1024 * 1024) / 8,
  uploadBps: (10 * 1024 * 1024) / 8,
  cpuSlowdown: 1,
};

/** Mobile: a 412×823 phone on slow 4G (562.5 ms, 1.47 Mbit/s down, 675 kbit/s up) with a 4× slower CPU. */
export const MOBILE: Profile = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  mobile: true,
  latencyMs: 562.5,
  downloadBps: (1474.56 * 1024) / 8,
  uploadBps: (675 * 1024) / 8,
  cpuSlowdown: 4,
};

export interface LoadOptions {
  userAgent: string;
  timeoutMs: number;
  ignoreHttpsErrors: boolean;
  /** Whether a request may leave for `url`; others are aborted and passed to `onBlocked`. */
  allow: (url: URL) => boolean;
  onBlocked: (url: string, navigation: boolean) => void;
  /** The pinned proxy every request of the context goes through (`server`, and the bypass list `<-loopback>`). */
  proxy?: { server: string; bypass: string };
  /** Told of each context opened, so that its owner can close it (an aborted scan). */
  opened?: (context: BrowserContext) => void;
}

export interface LoadedPage {
  context: BrowserContext;
  page: Page;
  finalUrl: string;
  timings: PageTimings;
}

/** A new context and page of a browser, set up for one profile and not yet navigated. */
export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  timeoutMs: number;
}

/**
 * A new context of `browser` under `profile`: requests filtered by `o.allow`, the observers registered, the
 * network and CPU throttled. Nothing is loaded yet, so it can be made while another page is still being read.
 */
export async function openPage(browser: Browser, profile: Profile, o: LoadOptions): Promise<OpenedPage> {
  const context = await browser.newContext({
    viewport: profile.viewport,
    deviceScaleFactor: profile.deviceScaleFactor,
    isMobile: profile.mobile,
    hasTouch: profile.mobile,
    userAgent: profile.mobile ? `${o.userAgent} Mobile` : o.userAgent,
    ignoreHTTPSErrors: o.ignoreHttpsErrors,
    bypassCSP: true,
    serviceWorkers: "block",
    acceptDownloads: false,
    ...(o.proxy ? { proxy: o.proxy } : {}),
  });
  o.opened?.(context);
  try {
    await context.route("**/*", (route) => {
      const requested = route.request().url();
      let parsed: URL | null = null;
      try {
        parsed = new URL(requested);
      } catch {}
      if (parsed && (parsed.protocol === "http:" || parsed.protocol === "https:") && !o.allow(parsed)) {
        o.onBlocked(requested, route.request().isNavigationRequest());
        return route.abort("blockedbyclient");
      }
      return route.continue();
    });
    // Redirect hops are not routed; the pinned proxy stops those leaving the site, and they are recorded here.
    context.on("request", (request) => {
      if (request.redirectedFrom() === null) return;
      const hop = new URL(request.url());
      if ((hop.protocol === "http:" || hop.protocol === "https:") && !o.allow(hop)) {
        o.onBlocked(request.url(), request.isNavigationRequest());
      }
    });
    await context.addInitScript({ content: OBSERVERS_SCRIPT });
    const page = await context.newPage();
    page.setDefaultTimeout(o.timeoutMs);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: profile.latencyMs,
      downloadThroughput: profile.downloadBps,
      uploadThroughput: profile.uploadBps,
    });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: profile.cpuSlowdown });
    return { context, page, cdp, timeoutMs: o.timeoutMs };
  } catch (error) {
    await context.close().catch(() => {});
    throw error;
  }
}

/** Loads `url` in an opened page and reads its lab timings once the page is quiet; the context is closed on failure. */
export async function measureLoad(opened: OpenedPage, url: string): Promise<LoadedPage> {
  const { context, page, cdp } = opened;
  try {
    const response = await page.goto(url, { waitUntil: "load", timeout: opened.timeoutMs });
    if (response && response.status() >= 400) throw new Error(`${url} answered HTTP ${response.status()}`);
    await page.evaluate(waitForQuiet, [1_000, 10_000] as [number, number]);
    const timings = await page.evaluate(readTimings);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    await cdp.detach().catch(() => {});
    return { context, page, finalUrl: page.url(), timings };
  } catch (error) {
    await context.close().catch(() => {});
    throw error;
  }
}

/** Loads `url` in a new context of `browser` under `profile` and reads its lab timings once the page is quiet. */
export async function loadPage(
  browser: Browser,
  url: string,
  profile: Profile,
  o: LoadOptions,
): Promise<LoadedPage> {
  return measureLoad(await openPage(browser, profile, o), url);
}

/** The mobile layout of a loaded page. */
export function readMobileLayout(page: Page): Promise<MobileLayout> {
  return page.evaluate(readLayout);
}
