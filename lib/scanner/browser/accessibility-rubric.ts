import type { CheckPoints, ScoredPart } from "../../scores/check-points.ts";
import { check } from "../points.ts";
import type { AxeRuleOutcome, Impact } from "./observations.ts";

const S = "tech_accessibility_score";

/** Weight of an axe-core rule by its impact (Lighthouse weighs its audits 10, 7 and 3). */
export const IMPACT_WEIGHT: Record<Impact, number> = { critical: 10, serious: 7, moderate: 3, minor: 1 };

/** The axe-core tags run: WCAG 2.0, 2.1 and 2.2 at levels A and AA. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] as const;

/**
 * Accessibility: every applicable rule is worth its impact weight, earned when no element violates it. One check
 * per violated rule, one for all passed rules; 0–100 is the earned share of the weights.
 */
export function scoreAccessibility(rules: readonly AxeRuleOutcome[]): ScoredPart {
  const checks: CheckPoints[] = [];
  let passedWeight = 0;
  let totalWeight = 0;
  let passed = 0;
  for (const r of rules) {
    const w = IMPACT_WEIGHT[r.impact];
    totalWeight += w;
    if (r.passed) {
      passedWeight += w;
      passed++;
      continue;
    }
    const elements = r.nodes === 1 ? "1 element" : `${r.nodes} elements`;
    checks.push(
      check(S, `a11y.${r.id}`, r.help, 0, w, `${elements} fail "${r.id}" (${r.impact}).`, `${r.help}.`),
    );
  }
  checks.unshift(
    check(
      S,
      "a11y.passed",
      "Rules passed",
      passedWeight,
      passedWeight,
      `${passed} of ${rules.length} applicable WCAG A/AA rules passed.`,
      "",
    ),
  );
  const score = totalWeight === 0 ? 100 : Math.round((1000 * passedWeight) / totalWeight) / 10;
  return { scores: { [S]: score }, checks, unmeasured: {} };
}
