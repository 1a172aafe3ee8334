/**
 * Code run inside the scanned page. The observers are registered before the page's own scripts (an init script)
 * and keep what Chromium reports: paints, LCP candidates, layout shifts and long tasks.
 */

interface Collected {
  fcp: number | null;
  lcp: number | null;
  cls: number;
  longTasks: [number, number][];
  lastLongTaskEnd: number;
}

declare global {
  interface Window {
    __unirankMetrics?: Collected;
  }
}

/** Registers the performance observers (as the text of an init script). */
export const OBSERVERS_SCRIPT = `(() => {
  const m = { fcp: null, lcp: null, cls: 0, longTasks: [], lastLongTaskEnd: 0 };
  window.__unirankMetrics = m;
  let windowValue = 0, windowStart = 0, windowLast = 0;
  const observe = (type, fn) => {
    try { new PerformanceObserver((list) => list.getEntries().forEach(fn)).observe({ type, buffered: true }); } catch {}
  };
  observe("paint", (e) => { if (e.name === "first-contentful-paint") m.fcp = e.startTime; });
  observe("largest-contentful-paint", (e) => { m.lcp = e.startTime; });
  observe("layout-shift", (e) => {
    if (e.hadRecentInput) return;
    if (windowValue > 0 && e.startTime - windowLast < 1000 && e.startTime - windowStart < 5000) {
      windowValue += e.value;
    } else {
      windowValue = e.value;
      windowStart = e.startTime;
    }
    windowLast = e.startTime;
    if (windowValue > m.cls) m.cls = windowValue;
  });
  observe("longtask", (e) => {
    m.longTasks.push([e.startTime, e.duration]);
    m.lastLongTaskEnd = Math.max(m.lastLongTaskEnd, e.startTime + e.duration);
  });
})();`;

/**
 * Resolves once the page has been quiet for `quietMs` (at most `capMs` from now): no long task, no resource
 * finishing and the load event over, the way Lighthouse waits for network and CPU quiet before reading metrics.
 */
export function waitForQuiet([quietMs, capMs]: [number, number]): Promise<void> {
  const start = performance.now();
  return new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
      let last = Math.max(window.__unirankMetrics?.lastLongTaskEnd ?? 0, nav?.loadEventEnd ?? 0);
      const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
      for (const r of resources) last = Math.max(last, r.responseEnd);
      if (now - last >= quietMs || now - start >= capMs) resolve();
      else setTimeout(tick, 50);
    };
    tick();
  });
}

/** The timings of the load: FCP, LCP, CLS, TBT (long tasks after FCP), load, bytes and requests. */
export function readTimings() {
  const m = window.__unirankMetrics ?? { fcp: null, lcp: null, cls: 0, longTasks: [], lastLongTaskEnd: 0 };
  let tbt = 0;
  if (m.fcp !== null) {
    for (const [start, duration] of m.longTasks) {
      const after = start + duration - Math.max(start, m.fcp);
      if (after > 50) tbt += after - 50;
    }
  }
  const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
  let bytes = nav?.transferSize ?? 0;
  for (const r of resources) bytes += r.transferSize;
  return {
    fcpMs: m.fcp,
    lcpMs: m.lcp ?? m.fcp,
    cls: Math.round(m.cls * 10000) / 10000,
    tbtMs: Math.round(tbt),
    loadMs: nav && nav.loadEventEnd > 0 ? Math.round(nav.loadEventEnd) : null,
    bytes: Math.round(bytes),
    requests: resources.length + 1,
  };
}

/** The viewport tag, widths, visible text by font size and the first 200 tap targets (whole CSS px). */
export function readLayout() {
  const viewport = document.querySelector('meta[name="viewport" i]')?.getAttribute("content") ?? null;
  const sizes = new Map<number, number>();
  const root = document.body ?? document.documentElement;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const skip = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"]);
  let seen = 0;
  while (walker.nextNode() && seen < 5000) {
    const text = (walker.currentNode.textContent ?? "").trim();
    const el = walker.currentNode.parentElement;
    if (text === "" || !el || skip.has(el.tagName)) continue;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (style.visibility === "hidden" || box.width === 0 || box.height === 0) continue;
    const px = Number.parseFloat(style.fontSize);
    sizes.set(px, (sizes.get(px) ?? 0) + text.length);
    seen++;
  }
  const selector = 'a[href],button,input:not([type="hidden"]),select,textarea,[role="button"],[role="link"]';
  const tapTargets = [];
  for (const el of Array.from(document.querySelectorAll(selector)).slice(0, 2000)) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const [x, y] = [Math.round(r.left + window.scrollX), Math.round(r.top + window.scrollY)];
    tapTargets.push({ x, y, w: Math.round(r.width), h: Math.round(r.height) });
    if (tapTargets.length >= 200) break;
  }
  return {
    viewport,
    layoutWidth: Math.max(1, document.documentElement.clientWidth || window.innerWidth),
    deviceWidth: Math.max(1, window.screen.width),
    scrollWidth: document.documentElement.scrollWidth,
    fontSizes: Array.from(sizes.entries()),
    tapTargets,
  };
}

interface AxeRule {
  id: string;
  impact?: string | null;
  help: string;
  nodes: unknown[];
}

/** Runs axe-core (already evaluated in the page) on the WCAG tags; each applicable rule with its declared impact. */
export async function runAxe(tags: string[]) {
  // biome-ignore lint/suspicious/noExplicitAny: axe-core is a page global here
  const axe = (window as any).axe;
  const declared = new Map<string, string | null>(
    (axe._audit?.rules ?? []).map((r: { id: string; impact?: string }) => [r.id, r.impact ?? null]),
  );
  const result = await axe.run(document, {
    runOnly: { type: "tag", values: tags },
    resultTypes: ["violations"],
  });
  const impacts = ["minor", "moderate", "serious", "critical"];
  const impactOf = (r: AxeRule) => {
    const i = declared.get(r.id) ?? r.impact ?? "moderate";
    return impacts.includes(i) ? i : "moderate";
  };
  const violated = new Set((result.violations as AxeRule[]).map((r) => r.id));
  const rules = (result.violations as AxeRule[]).map((r) => ({
    id: r.id,
    impact: impactOf(r),
    passed: false,
    nodes: r.nodes.length,
    help: r.help,
  }));
  for (const r of result.passes as AxeRule[]) {
    if (!violated.has(r.id))
      rules.push({ id: r.id, impact: impactOf(r), passed: true, nodes: 0, help: r.help });
  }
  return { version: String(axe.version), rules };
}
