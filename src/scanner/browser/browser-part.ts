import type { Browser } from "playwright-core";
import {
  AXE_TAGS,
  type AxeRuleOutcome,
  BROWSER_SCORES,
  type BrowserObservations,
  type PartContext,
  type ScanTarget,
  type ScoredPart,
  scoreBrowserObservations,
  siteHost,
  unmeasuredPart,
} from "../../../lib/scanner/index.ts";
import { firstLine, launchChromium, onlySiteResolverRule } from "./chromium.ts";
import { DESKTOP, loadPage, MOBILE, readMobileLayout } from "./measure.ts";
import { runAxe } from "./page-scripts.ts";
import { Slots } from "./slots.ts";

export interface BrowserPartOptions {
  /** Chromium's executable (`--chromium` / `CHROMIUM_PATH`); without it the browser sub-scores are null. */
  chromiumPath?: string | null;
  /** The home page of a domain (default `https://DOMAIN/`). */
  homeUrl?: (domain: string) => string;
  /** Budget of one page load, ms (default 30 000). */
  timeoutMs?: number;
  /** Load pages whose certificate Chromium does not trust (the TLS checks score certificates; default false). */
  ignoreHttpsErrors?: boolean;
  /** Universities measured at once (default 1): timings taken while pages compete for the CPU come out worse. */
  concurrency?: number;
}

/** A browser part: measures the five browser sub-scores; `close()` waits for every Chromium to stop. */
export interface BrowserPart {
  (target: ScanTarget, context: PartContext): Promise<ScoredPart & { observations?: BrowserObservations }>;
  close(): Promise<void>;
}

const BLOCKED_KEPT = 50;
const NO_CHROMIUM = "no Chromium configured (--chromium or CHROMIUM_PATH)";
const ABORTED = "the scan was aborted";

/** The home page navigated (redirected) to another host, which is not measured. */
class LeftSite extends Error {}

/**
 * Each university gets its own Chromium, whose resolver knows the university's domain only, and a fresh profile;
 * requests to other hosts are also aborted and recorded. A missing or broken Chromium, a page that does not load
 * or an aborted scan leaves the five sub-scores null with the reason.
 */
export function browserPart(options: BrowserPartOptions = {}): BrowserPart {
  const homeUrl = (domain: string, context: PartContext) =>
    options.homeUrl?.(domain) ?? context.homeUrl ?? `https://${domain}/`;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const slots = new Slots(options.concurrency ?? 1);
  const closing = new Set<Promise<void>>();
  let axeSource: Promise<string> | null = null;
  const none = (reason: string) => unmeasuredPart(BROWSER_SCORES, reason);

  const measure = async (b: Browser, url: string, site: string, context: PartContext) => {
    axeSource ??= import("axe-core").then((m) => (m.default ?? m).source);
    const blocked: string[] = [];
    let blockedCount = 0;
    let leftSite: string | null = null;
    const load = {
      userAgent: context.userAgent,
      timeoutMs,
      ignoreHttpsErrors: options.ignoreHttpsErrors ?? false,
      allow: (u: URL) => {
        const host = u.hostname.toLowerCase().replace(/^www\./, "");
        return host === site || host.endsWith(`.${site}`);
      },
      onBlocked: (u: string, navigation: boolean) => {
        if (navigation && leftSite === null) leftSite = u;
        blockedCount++;
        if (blocked.length < BLOCKED_KEPT && !blocked.includes(u)) blocked.push(u);
      },
    };
    const desktop = await loadPage(b, url, DESKTOP, load).catch((error) => {
      throw leftSite === null ? error : new LeftSite(leftSite);
    });
    await desktop.page.evaluate(await axeSource);
    const axe = await desktop.page.evaluate(runAxe, [...AXE_TAGS]);
    await desktop.context.close();
    if (context.signal?.aborted) throw new Error(ABORTED);
    const mobile = await loadPage(b, url, MOBILE, load);
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
  };

  const part = (async (target: ScanTarget, context: PartContext) => {
    if (!options.chromiumPath) return none(NO_CHROMIUM);
    if (!(await slots.acquire(context.signal))) return none(ABORTED);
    let b: Browser | null = null;
    const stop = () => {
      if (b === null) return;
      const done = b.close().catch(() => {});
      b = null;
      closing.add(done);
      done.finally(() => closing.delete(done));
    };
    context.signal?.addEventListener("abort", stop, { once: true });
    try {
      const url = homeUrl(target.domain, context);
      const site = siteHost(target.domain) ?? target.domain;
      try {
        b = await launchChromium(options.chromiumPath, 30_000, [onlySiteResolverRule(site)]);
      } catch (error) {
        return none(firstLine(error));
      }
      if (context.signal?.aborted) return none(ABORTED);
      return await measure(b, url, site, context);
    } catch (error) {
      if (context.signal?.aborted) return none(ABORTED);
      if (error instanceof LeftSite)
        return none(`the home page leads to another host, not measured: ${error.message}`);
      return none(`the home page did not load in Chromium: ${firstLine(error)}`);
    } finally {
      context.signal?.removeEventListener("abort", stop);
      stop();
      slots.release();
    }
  }) as BrowserPart;

  part.close = async () => {
    await Promise.all([...closing]);
  };
  return part;
}
