// axe-core's minified build: the same rules and version as its `source`, less text to evaluate in every measured
// page (docs/performance.md).
import AXE_SOURCE from "axe-core/axe.min.js" with { type: "text" };
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
import { firstLine, launchChromium, pinnedResolverRules } from "./chromium.ts";
import { DESKTOP, loadPage, MOBILE, measureLoad, openPage, readMobileLayout } from "./measure.ts";
import { runAxe } from "./page-scripts.ts";
import { type SlotHolder, Slots } from "./slots.ts";

export interface BrowserPartOptions {
  /**
   * The scanner's way to a host's address (its resolver and address guard: `guardedLookup`), used when the scan
   * gives none (`context.address`). Without either, no host is resolved and nothing is loaded.
   */
  lookup?: (host: string) => Promise<string>;
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
  /** Where the places come from when several processes share them (default: `concurrency` places of its own). */
  slots?: SlotHolder;
}

/** A browser part: measures the five browser sub-scores; `close()` waits for every Chromium to stop. */
export interface BrowserPart {
  (target: ScanTarget, context: PartContext): Promise<ScoredPart & { observations?: BrowserObservations }>;
  close(): Promise<void>;
  /** `browser` when a Chromium is configured: then the browser is one of the scan's measurement parts. */
  readonly profile?: "browser";
}

const BLOCKED_KEPT = 50;
const NO_CHROMIUM = "no Chromium configured (--chromium or CHROMIUM_PATH)";
const ABORTED = "the scan was aborted";

/** The home page navigated (redirected) to another host, which is not measured. */
class LeftSite extends Error {}

/** The home page's host was not resolved, or its address was refused. */
class NotReachable extends Error {}

const hostOf = (url: string) => new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, "");

/**
 * Each university gets its own Chromium and a fresh profile. Chromium resolves nothing itself: its resolver rules
 * map the site's hosts to the scanner's own answers (the scan's resolver and address guard, `context.address`,
 * else `lookup`), and every other name fails. Requests to other hosts are aborted and recorded; a
 * host of the site that was not known at launch is aborted too, looked up the scanner's way, and when allowed the
 * desktop load starts again in a Chromium that knows it (once). A missing or broken Chromium, a home page the guard
 * refuses or that does not load, or an aborted scan leaves the five sub-scores null with the reason.
 */
export function browserPart(options: BrowserPartOptions = {}): BrowserPart {
  const homeUrl = (domain: string, context: PartContext) =>
    options.homeUrl?.(domain) ?? context.homeUrl ?? `https://${domain}/`;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const slots = options.slots ?? new Slots(options.concurrency ?? 1);
  const ownLookup =
    options.lookup ?? (async (host: string) => Promise.reject(new Error(`no resolver for ${host}`)));
  const closing = new Set<Promise<void>>();
  const none = (reason: string) => unmeasuredPart(BROWSER_SCORES, reason);

  /** One university: the site's hosts pinned, a desktop load (again after learning hosts), a mobile load. */
  const measure = async (
    url: string,
    site: string,
    context: PartContext,
    launch: (pins: ReadonlyMap<string, string>) => Promise<Browser>,
    lookup: (host: string) => Promise<string>,
  ) => {
    const pins = new Map<string, string>();
    const refused = new Set<string>();
    const pin = async (host: string) => {
      if (pins.has(host) || refused.has(host)) return;
      try {
        pins.set(host, await lookup(host));
      } catch {
        refused.add(host);
      }
    };
    const home = hostOf(url);
    // The home page's host must be reachable: its refusal is the reason nothing is measured.
    pins.set(
      home,
      await lookup(home).catch((e: unknown) => {
        throw new NotReachable(e instanceof Error ? e.message : String(e));
      }),
    );
    for (const host of [site, `www.${site}`]) await pin(host);
    const inSite = (host: string) => host.replace(/^www\./, "") === site || host.endsWith(`.${site}`);
    let blocked: string[] = [];
    let blockedCount = 0;
    let leftSite: string | null = null;
    let learnt: Set<string> | null = null;
    const block = (u: string, navigation: boolean) => {
      if (navigation && leftSite === null) leftSite = u;
      blockedCount++;
      if (blocked.length < BLOCKED_KEPT && !blocked.includes(u)) blocked.push(u);
    };
    const load = {
      userAgent: context.userAgent,
      timeoutMs,
      ignoreHttpsErrors: options.ignoreHttpsErrors ?? false,
      allow: (u: URL) => {
        const host = u.hostname.toLowerCase().replace(/^\[|\]$/g, "");
        if (pins.has(host)) return true;
        if (learnt && inSite(host) && !refused.has(host)) learnt.add(host);
        return false;
      },
      onBlocked: block,
    };
    const loadDesktop = async (b: Browser) =>
      loadPage(b, url, DESKTOP, load).catch((error) => {
        throw leftSite === null ? error : new LeftSite(leftSite);
      });
    let b = await launch(pins);
    learnt = new Set();
    let desktop = await loadDesktop(b);
    const found: Set<string> = learnt;
    learnt = null;
    if (found.size > 0) {
      for (const host of found) await pin(host);
      if ([...found].some((h) => pins.has(h))) {
        // Measured again from the start, in a Chromium that knows the hosts learnt.
        await desktop.context.close();
        if (context.signal?.aborted) throw new Error(ABORTED);
        blocked = [];
        blockedCount = 0;
        b = await launch(pins);
        desktop = await loadDesktop(b);
      }
    }
    // The mobile page is set up while axe reads the desktop one (nothing is loaded or timed meanwhile).
    const opening = openPage(b, MOBILE, load);
    opening.catch(() => {}); // its failure is met below, where it is awaited
    let axe: Awaited<ReturnType<typeof runAxe>>;
    try {
      await desktop.page.evaluate(AXE_SOURCE);
      axe = await desktop.page.evaluate(runAxe, [...AXE_TAGS]);
    } catch (error) {
      void opening.then((o) => o.context.close()).catch(() => {});
      throw error;
    } finally {
      await desktop.context.close();
    }
    const opened = await opening;
    if (context.signal?.aborted) {
      await opened.context.close().catch(() => {});
      throw new Error(ABORTED);
    }
    const mobile = await measureLoad(opened, url);
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
    const chromiumPath = options.chromiumPath;
    if (!(await slots.acquire(context.signal))) return none(ABORTED);
    const browsers: Browser[] = [];
    const stop = () => {
      for (const b of browsers.splice(0)) {
        const done = b.close().catch(() => {});
        closing.add(done);
        done.finally(() => closing.delete(done));
      }
    };
    context.signal?.addEventListener("abort", stop, { once: true });
    let launchError: string | null = null;
    const launch = async (pins: ReadonlyMap<string, string>) => {
      stop();
      try {
        const b = await launchChromium(chromiumPath, 30_000, [pinnedResolverRules(pins)]);
        browsers.push(b);
        if (context.signal?.aborted) throw new Error(ABORTED);
        return b;
      } catch (error) {
        launchError ??= firstLine(error);
        throw error;
      }
    };
    try {
      const url = homeUrl(target.domain, context);
      const site = siteHost(target.domain) ?? target.domain;
      return await measure(url, site, context, launch, context.address ?? ownLookup);
    } catch (error) {
      if (context.signal?.aborted) return none(ABORTED);
      if (launchError !== null) return none(launchError);
      if (error instanceof NotReachable) return none(`the home page is not loaded: ${error.message}`);
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
  if (!options.chromiumPath) return part;
  return Object.assign(part, { profile: "browser" as const });
}
