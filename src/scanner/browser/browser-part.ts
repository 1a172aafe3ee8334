import type { Browser } from "playwright-core";
import {
  AXE_TAGS,
  type AxeRuleOutcome,
  BROWSER_SCORES,
  type BrowserObservations,
  type PartContext,
  type PartTarget,
  scoreBrowserObservations,
  siteHost,
  unmeasuredPart,
} from "../../../lib/index.ts";
import type { ScoredPart } from "../../../lib/scanner/check.ts";
import { firstLine, launchChromium } from "./chromium.ts";
import { DESKTOP, type LoadedPage, loadPage, MOBILE, readMobileLayout } from "./measure.ts";
import { runAxe } from "./page-scripts.ts";

export interface BrowserPartOptions {
  /** Chromium's executable (`--chromium` / `CHROMIUM_PATH`); without it the browser sub-scores are null. */
  chromiumPath?: string | null;
  /** The home page of a domain (default `https://DOMAIN/`). */
  homeUrl?: (domain: string) => string;
  /** Budget of one page load, ms (default 30 000). */
  timeoutMs?: number;
  /** Load pages whose certificate Chromium does not trust (the TLS checks score certificates; default false). */
  ignoreHttpsErrors?: boolean;
}

/** A browser part: measures the five browser sub-scores; `close()` stops its Chromium. */
export interface BrowserPart {
  (target: PartTarget, context: PartContext): Promise<ScoredPart & { observations?: BrowserObservations }>;
  close(): Promise<void>;
}

const BLOCKED_KEPT = 50;

/**
 * One Chromium, started on first use and shared by every university (each load gets its own context). A missing
 * or broken Chromium, a page that does not load, or an aborted scan leaves the five sub-scores null with the reason.
 */
export function browserPart(options: BrowserPartOptions = {}): BrowserPart {
  const homeUrl = options.homeUrl ?? ((domain: string) => `https://${domain}/`);
  const timeoutMs = options.timeoutMs ?? 30_000;
  let starting: Promise<Browser> | null = null;
  let axeSource: Promise<{ source: string }> | null = null;

  const browser = (): Promise<Browser> => {
    if (!options.chromiumPath)
      return Promise.reject(new Error("no Chromium configured (--chromium or CHROMIUM_PATH)"));
    if (starting === null) {
      starting = launchChromium(options.chromiumPath);
      starting.then((b) => b.on("disconnected", () => (starting = null))).catch(() => {});
    }
    return starting;
  };

  const part = (async (target: PartTarget, context: PartContext) => {
    const none = (reason: string) => unmeasuredPart(BROWSER_SCORES, reason);
    if (!options.chromiumPath) return none("no Chromium configured (--chromium or CHROMIUM_PATH)");
    if (context.signal?.aborted) return none("the scan was aborted");
    let b: Browser;
    try {
      b = await browser();
    } catch (error) {
      return none(firstLine(error));
    }
    axeSource ??= import("axe-core").then((m) => ({ source: (m.default ?? m).source }));

    const url = homeUrl(target.domain);
    const site = siteHost(target.domain) ?? target.domain;
    const blocked: string[] = [];
    let blockedCount = 0;
    const load = {
      userAgent: context.userAgent,
      timeoutMs,
      ignoreHttpsErrors: options.ignoreHttpsErrors ?? false,
      allow: (u: URL) => {
        const host = u.hostname.toLowerCase().replace(/^www\./, "");
        return host === site || host.endsWith(`.${site}`);
      },
      onBlocked: (u: string) => {
        blockedCount++;
        if (blocked.length < BLOCKED_KEPT && !blocked.includes(u)) blocked.push(u);
      },
    };
    const open: LoadedPage[] = [];
    const onAbort = () => {
      for (const p of open) p.context.close().catch(() => {});
    };
    context.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const desktop = await loadPage(b, url, DESKTOP, load);
      open.push(desktop);
      await desktop.page.evaluate((await axeSource).source);
      const axe = await desktop.page.evaluate(runAxe, [...AXE_TAGS]);
      await desktop.context.close();
      if (context.signal?.aborted) return none("the scan was aborted");
      const mobile = await loadPage(b, url, MOBILE, load);
      open.push(mobile);
      const layout = await readMobileLayout(mobile.page);
      await mobile.context.close();
      const observations: BrowserObservations = {
        url,
        finalUrl: desktop.finalUrl,
        desktop: desktop.timings,
        mobile: mobile.timings,
        layout,
        axeVersion: axe.version,
        accessibility: axe.rules as AxeRuleOutcome[],
        blocked,
        blockedCount,
      };
      return { ...scoreBrowserObservations(observations), observations };
    } catch (error) {
      if (context.signal?.aborted) return none("the scan was aborted");
      return none(`the home page did not load in Chromium: ${firstLine(error)}`);
    } finally {
      context.signal?.removeEventListener("abort", onAbort);
      for (const p of open) await p.context.close().catch(() => {});
    }
  }) as BrowserPart;

  part.close = async () => {
    const s = starting;
    starting = null;
    if (s) await (await s.catch(() => null))?.close();
  };
  return part;
}
