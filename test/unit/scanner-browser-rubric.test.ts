import { describe, expect, test } from "bun:test";
import {
  type AxeRuleOutcome,
  type BrowserObservations,
  logNormalScore,
  type MobileLayout,
  type PageTimings,
  parseViewport,
  scoreAccessibility,
  scoreBrowserObservations,
  scoreMobileFriendly,
  scoreSpeed,
  scoreWebVitals,
  wellSizedTargets,
} from "../../lib/scanner/index.ts";
import type { ScoredPart } from "../../lib/scores/check-points.ts";

const points = (part: ScoredPart) => Object.fromEntries(part.checks.map((c) => [c.id, [c.points, c.max]]));

const timings = (t: Partial<PageTimings>): PageTimings => ({
  fcpMs: 100,
  lcpMs: 100,
  cls: 0,
  tbtMs: 0,
  loadMs: 100,
  bytes: 1000,
  requests: 1,
  ...t,
});

const layout = (l: Partial<MobileLayout>): MobileLayout => ({
  viewport: "width=device-width, initial-scale=1",
  layoutWidth: 412,
  deviceWidth: 412,
  scrollWidth: 412,
  fontSizes: [[16, 100]],
  tapTargets: [
    { x: 0, y: 0, w: 48, h: 48 },
    { x: 100, y: 0, w: 48, h: 48 },
  ],
  ...l,
});

describe("Lighthouse's log-normal curve", () => {
  const curve = { p10: 1200, median: 2400 };
  test("scores 0.90 at p10, 0.50 at the median, 1 at zero, and falls beyond", () => {
    expect(logNormalScore(curve, 1200)).toBeCloseTo(0.9, 6);
    expect(logNormalScore(curve, 2400)).toBeCloseTo(0.5, 6);
    expect(logNormalScore(curve, 0)).toBe(1);
    expect(logNormalScore(curve, 600)).toBeGreaterThan(0.9);
    expect(logNormalScore(curve, 4800)).toBeLessThan(0.5);
    expect(logNormalScore(curve, 4800)).toBeGreaterThan(logNormalScore(curve, 9600));
    expect(logNormalScore(curve, 1e9)).toBeCloseTo(0, 6);
  });
  test("stays inside the band of its control points (Lighthouse's clamps)", () => {
    const s = logNormalScore(curve, 1800);
    expect(s).toBeGreaterThanOrEqual(0.5);
    expect(s).toBeLessThan(0.9);
  });
});

describe("speed rubric", () => {
  test("desktop: FCP at p10 9/10, LCP at median 12.5/25, no TBT 30/30, CLS at median 12.5/25 → 64/90 = 71.1", () => {
    const part = scoreSpeed("desktop", timings({ fcpMs: 934, lcpMs: 2400, tbtMs: 0, cls: 0.25 }));
    expect(points(part)).toEqual({
      "speed-desktop.fcp": [9, 10],
      "speed-desktop.lcp": [12.5, 25],
      "speed-desktop.tbt": [30, 30],
      "speed-desktop.cls": [12.5, 25],
    });
    expect(part.scores).toEqual({ tech_speed_desktop_score: 71.1 });
    expect(part.checks.find((c) => c.id === "speed-desktop.tbt")?.remediation).toBeNull();
    expect(part.checks.find((c) => c.id === "speed-desktop.lcp")?.remediation).toContain("largest");
  });
  test("mobile uses the mobile curves: FCP 3000 5, LCP 2500 22.5, TBT 600 15, CLS 0.1 22.5 → 65/90 = 72.2", () => {
    const part = scoreSpeed("mobile", timings({ fcpMs: 3000, lcpMs: 2500, tbtMs: 600, cls: 0.1 }));
    expect(points(part)).toEqual({
      "speed-mobile.fcp": [5, 10],
      "speed-mobile.lcp": [22.5, 25],
      "speed-mobile.tbt": [15, 30],
      "speed-mobile.cls": [22.5, 25],
    });
    expect(part.scores).toEqual({ tech_speed_mobile_score: 72.2 });
  });
  test("a metric that was not reported earns nothing", () => {
    const part = scoreSpeed("mobile", timings({ fcpMs: null, lcpMs: null }));
    expect(points(part)["speed-mobile.fcp"]).toEqual([0, 10]);
    expect(points(part)["speed-mobile.lcp"]).toEqual([0, 25]);
    expect(part.scores.tech_speed_mobile_score).toBe(61.1); // 55 of 90
  });
});

describe("Core Web Vitals rubric", () => {
  test("good LCP 40, CLS needing improvement 15, poor TBT 0 → 55", () => {
    const part = scoreWebVitals(timings({ lcpMs: 2000, cls: 0.2, tbtMs: 700 }));
    expect(points(part)).toEqual({ "cwv.lcp": [40, 40], "cwv.cls": [15, 30], "cwv.tbt": [0, 30] });
    expect(part.scores).toEqual({ tech_core_web_vitals_score: 55 });
  });
  test("thresholds are inclusive: 2500 ms, 0.1 and 200 ms are good", () => {
    expect(
      scoreWebVitals(timings({ lcpMs: 2500, cls: 0.1, tbtMs: 200 })).scores.tech_core_web_vitals_score,
    ).toBe(100);
    expect(
      scoreWebVitals(timings({ lcpMs: 4001, cls: 0.26, tbtMs: 601 })).scores.tech_core_web_vitals_score,
    ).toBe(0);
  });
});

describe("mobile-friendliness rubric", () => {
  test("a responsive page earns all 100 points", () => {
    const part = scoreMobileFriendly(layout({}));
    expect(points(part)).toEqual({
      "mobile.viewport": [30, 30],
      "mobile.zoom": [10, 10],
      "mobile.content-width": [20, 20],
      "mobile.font-size": [20, 20],
      "mobile.tap-targets": [20, 20],
    });
    expect(part.scores).toEqual({ tech_mobile_friendly_score: 100 });
  });
  test("a desktop page on a phone: only the zoom check passes → 10", () => {
    const crowded = Array.from({ length: 10 }, (_, i) => ({ x: i * 25, y: 0, w: 20, h: 12 }));
    const part = scoreMobileFriendly(
      layout({
        viewport: null,
        layoutWidth: 980,
        deviceWidth: 412,
        scrollWidth: 1100,
        fontSizes: [
          [16, 50],
          [10, 50],
        ],
        tapTargets: crowded,
      }),
    );
    expect(points(part)).toEqual({
      "mobile.viewport": [0, 30],
      "mobile.zoom": [10, 10],
      "mobile.content-width": [0, 20],
      "mobile.font-size": [0, 20], // 16 px × 412/980 = 6.7 px on the phone
      "mobile.tap-targets": [0, 20],
    });
    expect(part.scores).toEqual({ tech_mobile_friendly_score: 10 });
  });
  test("a fixed-width viewport earns 15, and blocking zoom loses 10", () => {
    expect(points(scoreMobileFriendly(layout({ viewport: "width=980" })))["mobile.viewport"]).toEqual([
      15, 30,
    ]);
    const noZoom = scoreMobileFriendly(layout({ viewport: "width=device-width, maximum-scale=1" }));
    expect(points(noZoom)["mobile.zoom"]).toEqual([0, 10]);
    expect(
      points(scoreMobileFriendly(layout({ viewport: "width=device-width,user-scalable=no" })))["mobile.zoom"],
    ).toEqual([0, 10]);
    expect(parseViewport("Width = device-width ; Initial-Scale=1").get("width")).toBe("device-width");
  });
  test("legible text below 60 % earns in proportion: 30 % → 10 points", () => {
    const part = scoreMobileFriendly(
      layout({
        fontSizes: [
          [16, 30],
          [10, 70],
        ],
      }),
    );
    expect(points(part)["mobile.font-size"]).toEqual([10, 20]);
  });
  test("tap targets: big ones and isolated small ones pass, crowded small ones fail → 3 of 5 = 12 points", () => {
    const targets = [
      { x: 0, y: 0, w: 48, h: 48 },
      { x: 200, y: 0, w: 60, h: 50 },
      { x: 0, y: 300, w: 20, h: 20 },
      { x: 22, y: 300, w: 20, h: 20 },
      { x: 300, y: 600, w: 20, h: 20 },
    ];
    expect(wellSizedTargets(targets, 1)).toBe(3);
    expect(points(scoreMobileFriendly(layout({ tapTargets: targets })))["mobile.tap-targets"]).toEqual([
      12, 20,
    ]);
  });
});

describe("accessibility rubric", () => {
  const rule = (
    id: string,
    impact: AxeRuleOutcome["impact"],
    passed: boolean,
    nodes = 0,
  ): AxeRuleOutcome => ({
    id,
    impact,
    passed,
    nodes,
    help: `Rule ${id}`,
  });
  test("passed weights over applicable weights: 17 of 31 → 54.8, one check per violated rule", () => {
    const part = scoreAccessibility([
      rule("image-alt", "critical", true),
      rule("document-title", "serious", true),
      rule("heading-order", "moderate", false, 3),
      rule("meta-viewport-large", "minor", false, 1),
      rule("button-name", "critical", false, 2),
    ]);
    expect(points(part)).toEqual({
      "a11y.passed": [17, 17],
      "a11y.heading-order": [0, 3],
      "a11y.meta-viewport-large": [0, 1],
      "a11y.button-name": [0, 10],
    });
    expect(part.scores).toEqual({ tech_accessibility_score: 54.8 });
    expect(part.checks.find((c) => c.id === "a11y.button-name")?.detail).toBe(
      '2 elements fail "button-name" (critical).',
    );
  });
  test("no violations → 100", () => {
    expect(scoreAccessibility([rule("image-alt", "critical", true)]).scores).toEqual({
      tech_accessibility_score: 100,
    });
  });
});

describe("all browser scores from stored observations", () => {
  test("re-scoring observations gives the five sub-scores", () => {
    const o: BrowserObservations = {
      url: "https://example.edu/",
      finalUrl: "https://example.edu/",
      desktop: timings({ fcpMs: 934, lcpMs: 2400, cls: 0.25 }),
      mobile: timings({ fcpMs: 3000, lcpMs: 2500, tbtMs: 600, cls: 0.1 }),
      layout: layout({}),
      axeVersion: "4.11.0",
      accessibility: [],
      blocked: [],
      blockedCount: 0,
    };
    expect(scoreBrowserObservations(o).scores).toEqual({
      tech_speed_desktop_score: 71.1,
      tech_speed_mobile_score: 72.2,
      tech_core_web_vitals_score: 85, // LCP good 40, CLS good 30, TBT needs improvement 15
      tech_mobile_friendly_score: 100,
      tech_accessibility_score: 100,
    });
  });
});
