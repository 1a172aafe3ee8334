import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CHROMIUM_ARGS } from "../../src/scanner/browser/chromium.ts";

/** Headless Chromium for the explorer tests: other hosts aborted and counted, console errors collected, axe. */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const ARTIFACTS = join(import.meta.dir, "..", "artifacts");
export const chromiumAvailable = existsSync(CHROMIUM);

export const LAUNCH_ARGS: string[] = [...CHROMIUM_ARGS];

// biome-ignore lint/suspicious/noExplicitAny: playwright types are loaded lazily
export type AnyPage = any;

export interface Watched {
  page: AnyPage;
  external: string[];
  errors: string[];
  apiCalls: string[];
}

/** A page whose requests to other origins are aborted and recorded, and whose console errors are kept. */
export async function watchedPage(
  // biome-ignore lint/suspicious/noExplicitAny: playwright types are loaded lazily
  browser: any,
  origin: string,
  options: Record<string, unknown> = {},
): Promise<Watched> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, ...options });
  const external: string[] = [];
  const errors: string[] = [];
  const apiCalls: string[] = [];
  page.on("console", (m: { type(): string; text(): string }) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e: Error) => errors.push(String(e)));
  await page.route(
    "**/*",
    (route: { request(): { url(): string }; abort(): Promise<void>; continue(): Promise<void> }) => {
      const url = route.request().url();
      if (url.startsWith("data:") || new URL(url).origin === origin) {
        if (url.includes("/api/v2/")) apiCalls.push(url);
        return route.continue();
      }
      external.push(url);
      return route.abort();
    },
  );
  return { page, external, errors, apiCalls };
}

/**
 * Waits until the explorer has rendered the view of the address shown (its `h1`, no busy flag, made for this
 * address: the view before a link's or a button's new address is no answer) and every chart on it is drawn.
 */
export async function rendered(page: AnyPage): Promise<void> {
  await page.waitForFunction(
    () => {
      const main = document.getElementById("main");
      if (!main || main.getAttribute("aria-busy") === "true" || !main.querySelector("h1")) return false;
      if (main.dataset.view !== location.hash) return false;
      return [...main.querySelectorAll(".plot")].every((p) => (p as HTMLElement).dataset.drawn === "true");
    },
    null,
    { timeout: 20_000 },
  );
}

/** axe-core's serious and critical violations on the page. */
export async function axeViolations(page: AnyPage): Promise<{ id: string; impact: string; nodes: number }[]> {
  const source = readFileSync(join(import.meta.dir, "..", "..", "node_modules/axe-core/axe.min.js"), "utf8");
  // Evaluated through the devtools protocol: the page's CSP (rightly) refuses inline scripts.
  if (!(await page.evaluate("typeof window.axe"))?.startsWith("obj")) await page.evaluate(`${source}\n;0`);
  const result = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is injected above
    const r = await (window as any).axe.run(document, { resultTypes: ["violations"] });
    // biome-ignore lint/suspicious/noExplicitAny: axe result
    return r.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.length,
      html: v.nodes[0]?.html,
    }));
  });
  return (result as { id: string; impact: string; nodes: number }[]).filter(
    (v) => v.impact === "serious" || v.impact === "critical",
  );
}

export function screenshotPath(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, `explorer-${name}.png`);
}
