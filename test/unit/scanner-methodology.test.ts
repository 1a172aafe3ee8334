import { describe, expect, test } from "bun:test";
import type { BrowserObservations } from "../../lib/scanner/browser/observations.ts";
import { BROWSER_SCORES, scoreBrowserObservations } from "../../lib/scanner/browser/rubric.ts";
import { methodology, RUBRIC_CHECKS } from "../../lib/scanner/methodology.ts";
import { REFERENCES } from "../../lib/scanner/rubric/check-table.ts";
import { MEASURED_ELSEWHERE, OWN_SITE_CHECKS } from "../../lib/scanner/score-observations.ts";
import { scoreGreenCheck } from "../../lib/scanner/sources/greenweb.ts";
import { scoreOpenAlex } from "../../lib/scanner/sources/openalex.ts";
import { scoreWikidata } from "../../lib/scanner/sources/wikidata.ts";
import { COMPOSITE_SCORES, OVERALL_WEIGHTS, SUB_SCORE_NAMES } from "../../lib/scores/catalogue.ts";
import type { CheckPoints } from "../../lib/scores/check-points.ts";
import { canonicalProfile, PROFILE_PARTS, profileOf, UNKNOWN_PROFILE } from "../../lib/scores/profile.ts";
import { SOURCE_SCORES } from "../../src/scanner/sources/index.ts";

const page = (ms: number) => ({
  fcpMs: ms,
  lcpMs: ms,
  cls: 0.3,
  tbtMs: ms,
  loadMs: ms,
  bytes: 1000,
  requests: 1,
});

/** A page with something wrong in each browser rubric, so every kind of check shows. */
const BROWSER: BrowserObservations = {
  url: "https://example.edu/",
  finalUrl: "https://example.edu/",
  desktop: page(3000),
  mobile: { ...page(5000), lcpMs: null },
  layout: {
    viewport: null,
    layoutWidth: 980,
    deviceWidth: 412,
    scrollWidth: 1200,
    fontSizes: [[10, 100]],
    tapTargets: [{ x: 0, y: 0, w: 10, h: 10 }],
  },
  axeVersion: "4.11.0",
  accessibility: [
    {
      id: "image-alt",
      impact: "critical",
      passed: false,
      nodes: 3,
      help: "Images must have alternative text",
    },
    { id: "html-has-lang", impact: "serious", passed: true, nodes: 0, help: "html has lang" },
  ],
  blocked: [],
  blockedCount: 0,
};

/** Every check the browser and source rubrics score for some observations. */
function scoredChecks(): CheckPoints[] {
  return [
    ...scoreBrowserObservations(BROWSER).checks,
    ...scoreOpenAlex({
      institutionId: "I1",
      name: "U",
      homepage: "https://u.example/",
      years: [2021, 2025],
      works: 100,
      meanCitedness2y: 1,
      hIndex: 10,
      top10Works: 3,
    }).checks,
    ...scoreWikidata({ item: "Q1", website: "https://u.example/", wikipedias: ["enwiki"] }).checks,
    ...scoreGreenCheck({ url: "u.example", green: true, supporting_documents: [{}] }).checks,
  ];
}

describe("the methodology", () => {
  const m = methodology();

  test("lists every check once, with a known reference; what the rubrics score matches it", () => {
    const ids = m.checks.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of m.checks) {
      expect(Object.keys(m.references)).toContain(c.reference);
      expect(c.earns.length).toBeGreaterThan(5);
    }
    const byId = new Map(m.checks.map((c) => [c.id, c]));
    const seen = new Set<string>();
    for (const c of scoredChecks()) {
      const listed = byId.get(c.id) ?? byId.get(c.id.replace(/^a11y\.(?!passed$).*/, "a11y.<rule-id>"));
      expect(listed && { score: listed.score, max: listed.max ?? c.max }).toEqual({
        score: c.score,
        max: c.max,
      });
      if (listed?.max !== null) expect(listed?.label).toBe(c.label);
      seen.add(listed?.id ?? c.id);
    }
    // Every browser and source check of the methodology is one the rubrics scored above.
    const beyondSite = m.checks.slice(m.checks.length - RUBRIC_CHECKS.length + OWN_SITE_CHECKS.length);
    expect(beyondSite.filter((c) => !seen.has(c.id))).toEqual([]);
    expect(beyondSite.length).toBeGreaterThan(20);
  });

  test("composites, their sub-scores and weights are the catalogue's; the weights make 1", () => {
    expect(m.composites.map((c) => [c.name, c.from, c.weight])).toEqual(
      COMPOSITE_SCORES.map((c) => [c.name, [...c.from], OVERALL_WEIGHTS[c.name] as number]),
    );
    expect(m.composites.reduce((s, c) => s + c.weight, 0)).toBeCloseTo(1, 10);
    expect(m.sub_scores.map((s) => s.name)).toEqual([...SUB_SCORE_NAMES]);
  });

  test("references are those of the rubrics; the rubric versions end with the current one", () => {
    expect(Object.keys(m.references)).toEqual(Object.keys(REFERENCES));
    expect(m.rubric_versions.at(-1)?.version).toBe(m.rubric_version);
  });
});

describe("profiles", () => {
  test("each sub-score is measured by at most one part; those of none are the ones no part measures", () => {
    const measured: string[] = PROFILE_PARTS.flatMap((p) => [...p.measures]);
    expect(new Set(measured).size).toBe(measured.length);
    const byNone = SUB_SCORE_NAMES.filter((n) => !measured.includes(n));
    expect(byNone.sort()).toEqual(["presence_news_score", "webo_visibility_score"]);
    // The parts beyond the own site are exactly the sub-scores the own-site rubrics leave to others.
    const elsewhere = Object.keys(MEASURED_ELSEWHERE).sort();
    expect(elsewhere).toEqual(
      [...BROWSER_SCORES, ...Object.values(SOURCE_SCORES).flat(), ...byNone].sort() as string[],
    );
    const methodologyParts = methodology()
      .sub_scores.filter((s) => s.part === null)
      .map((s) => s.name);
    expect(methodologyParts.sort()).toEqual(byNone);
  });

  test("a profile is its parts in one order; anything else is refused", () => {
    expect(profileOf(["greenweb", "site", "browser"])).toBe("site,browser,greenweb");
    expect(profileOf([])).toBe(UNKNOWN_PROFILE);
    expect(canonicalProfile(" Browser , SITE ")).toBe("site,browser");
    expect(canonicalProfile("unknown")).toBe("unknown");
    for (const bad of ["", "site,", "site,site", "site,unknown", "all", "web"])
      expect(canonicalProfile(bad)).toBeNull();
  });
});
