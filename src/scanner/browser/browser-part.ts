// axe-core's minified build: the same rules and version as its `source`, less text to evaluate in every measured
// page (docs/performance.md).
import AXE_SOURCE from "axe-core/axe.min.js" with { type: "text" };
import type { Browser, BrowserContext } from "playwright-core";
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
import { firstLine } from "./chromium.ts";
import { DESKTOP, loadPage, MOBILE, measureLoad, openPage, readMobileLayout } from "./measure.ts";
import { runAxe } from "./page-scripts.ts";
import { BYPASS_NOTHING, startPinnedProxy } from "./pinned-proxy.ts";
import { type ChromiumLease, SharedChromium } from "./shared-chromium.ts";
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
  /** Universities one Chromium serves before it is replaced (default 50). */
  universitiesPerChromium?: number;
  /** An unused Chromium is closed after this many ms (default 30 000). */
  chromiumIdleMs?: number;
}

/** A browser part: measures the five browser sub-scores; `close()` stops its Chromium and waits for it. */
export interface BrowserPart {
  (target: ScanTarget, context: PartContext): Promise<ScoredPart & { observations?: BrowserObservations }>;
  close(): Promise<void>;
  /** Chromiums launched so far (one serves many universities). */
  launches(): number;
  /** `browser` when a Chromium is configured: then the browser is one of the scan's measurement parts. */
  readonly profile?: "browser";
}

const BLOCKED_KEPT = 50;
const NO_CHROMIUM = "no Chromium configured (--chromium or CHROMIUM_PATH)";
const ABORTED = "the scan was aborted";

/** How long the contexts of a finished attempt are waited for to close. */
const CONTEXT_CLOSE_WAIT_MS = 5_000;

/** The home page navigated (redirected) to another host, which is not measured. */
class LeftSite extends Error {}

/** The home page's host was not resolved, or its address was refused. */
class NotReachable extends Error {}

const hostOf = (url: string) => new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, "");

/**
 * One Chromium serves the universities in turn (`SharedChromium`: relaunched when it crashed, after
 * `universitiesPerChromium` universities or when idle), each university in fresh browser contexts of its own whose
 * every request goes through a pinned proxy of its own (`startPinnedProxy`). Chromium resolves nothing itself: the
 * proxy connects the site's hosts to the scanner's own answers (the scan's resolver and address guard,
 * `context.address`, else `lookup`) on the site's ports, and refuses every other host. Requests to other hosts are
 * aborted and recorded; a host of the site that was not known when the load began is aborted too, looked up the
 * scanner's way, and when allowed the desktop load starts again in a new context (once). A missing or broken
 * Chromium, a home page the guard refuses or that does not load, or an aborted scan leaves the five sub-scores null
 * with the reason; a university whose Chromium crashed under it is measured once more in a new one.
 */
export function browserPart(options: BrowserPartOptions = {}): BrowserPart {
  const homeUrl = (domain: string, context: PartContext) =>
    options.homeUrl?.(domain) ?? context.homeUrl ?? `https://${domain}/`;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const slots = options.slots ?? new Slots(options.concurrency ?? 1);
  const ownLookup =
    options.lookup ?? (async (host: string) => Promise.reject(new Error(`no resolver for ${host}`)));
  const chromium = options.chromiumPath
    ? new SharedChromium({
        path: options.chromiumPath,
        maxUses: options.universitiesPerChromium,
        idleMs: options.chromiumIdleMs,
      })
    : null;
  const none = (reason: string) => unmeasuredPart(BROWSER_SCORES, reason);

  /** One university: the site's hosts pinned, a desktop load (again after learning hosts), a mobile load. */
  const measure = async (
    url: string,
    site: string,
    context: PartContext,
    browser: () => Promise<Browser>,
    lookup: (host: string) => Promise<string>,
    track: (c: BrowserContext) => void,
    proxied: (proxy: { close(): Promise<void> }) => void,
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
    const homeUrlParsed = new URL(url);
    const homePort = Number(homeUrlParsed.port || (homeUrlParsed.protocol === "https:" ? 443 : 80));
    const proxy = await startPinnedProxy({
      addressOf: (host) => pins.get(host) ?? null,
      ports: new Set([80, 443, homePort]),
    });
    proxied(proxy);
    try {
      const b = await browser();
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
        proxy: { server: proxy.server, bypass: BYPASS_NOTHING },
        opened: track,
      };
      const loadDesktop = async () =>
        loadPage(b, url, DESKTOP, load).catch((error) => {
          throw leftSite === null ? error : new LeftSite(leftSite);
        });
      learnt = new Set();
      let desktop = await loadDesktop();
      const found: Set<string> = learnt;
      learnt = null;
      if (found.size > 0) {
        for (const host of found) await pin(host);
        if ([...found].some((h) => pins.has(h))) {
          // Measured again from the start, in a new context whose proxy now knows the hosts learnt.
          await desktop.context.close();
          if (context.signal?.aborted) throw new Error(ABORTED);
          blocked = [];
          blockedCount = 0;
          desktop = await loadDesktop();
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
    } finally {
      await proxy.close();
    }
  };

  const part = (async (target: ScanTarget, context: PartContext) => {
    if (!chromium) return none(NO_CHROMIUM);
    if (!(await slots.acquire(context.signal))) return none(ABORTED);
    const contexts = new Set<BrowserContext>();
    const opened = (c: BrowserContext) => {
      contexts.add(c);
      c.on("close", () => contexts.delete(c));
      if (context.signal?.aborted) void c.close().catch(() => {});
    };
    const stop = () => {
      for (const c of contexts) void c.close().catch(() => {});
    };
    context.signal?.addEventListener("abort", stop, { once: true });
    let launchError: string | null = null;
    try {
      const url = homeUrl(target.domain, context);
      const site = siteHost(target.domain) ?? target.domain;
      for (let attempt = 0; ; attempt++) {
        let lease: ChromiumLease | null = null;
        let proxy: { close(): Promise<void> } | null = null;
        // Chromium going away ends the attempt at once, whatever step of the measurement waits for it.
        let disconnected: (error: Error) => void = () => {};
        const crash = new Promise<never>((_, reject) => {
          disconnected = reject;
        });
        crash.catch(() => {});
        const gone = () => disconnected(new Error("Chromium disconnected during the measurement"));
        const browser = async () => {
          if (context.signal?.aborted) throw new Error(ABORTED);
          lease = await chromium.acquire().catch((error: unknown) => {
            launchError = firstLine(error);
            throw error;
          });
          lease.browser.once("disconnected", gone);
          if (!lease.browser.isConnected()) gone();
          return lease.browser;
        };
        try {
          const lookup = context.address ?? ownLookup;
          const measuring = measure(url, site, context, browser, lookup, opened, (p) => {
            proxy = p;
          });
          measuring.catch(() => {});
          return await Promise.race([measuring, crash]);
        } catch (error) {
          // Chromium crashed under this university: measured once more in a new one.
          const crashed = lease !== null && !(lease as ChromiumLease).browser.isConnected();
          if (attempt === 0 && crashed && !context.signal?.aborted) continue;
          throw error;
        } finally {
          (lease as ChromiumLease | null)?.browser.off("disconnected", gone);
          // Contexts of a Chromium that went away may never answer: their closing is waited for a while only.
          const closing = Promise.all([...contexts].map((c) => c.close().catch(() => {})));
          await Promise.race([
            closing,
            new Promise((done) => setTimeout(done, CONTEXT_CLOSE_WAIT_MS).unref?.()),
          ]);
          // An attempt ended by its Chromium going away may leave its measurement waiting: its proxy goes now.
          await (proxy as { close(): Promise<void> } | null)?.close().catch(() => {});
          (lease as ChromiumLease | null)?.release();
        }
      }
    } catch (error) {
      if (context.signal?.aborted) return none(ABORTED);
      if (launchError !== null) return none(launchError);
      if (error instanceof NotReachable) return none(`the home page is not loaded: ${error.message}`);
      if (error instanceof LeftSite)
        return none(`the home page leads to another host, not measured: ${error.message}`);
      return none(`the home page did not load in Chromium: ${firstLine(error)}`);
    } finally {
      context.signal?.removeEventListener("abort", stop);
      slots.release();
    }
  }) as BrowserPart;

  part.close = async () => {
    await chromium?.close();
  };
  part.launches = () => chromium?.launches ?? 0;
  if (!chromium) return part;
  return Object.assign(part, { profile: "browser" as const });
}
