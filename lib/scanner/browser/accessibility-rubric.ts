import type { CheckPoints, ScoredPart } from "../../scores/check-points.ts";
import type { CheckListing } from "../rubric/check-table.ts";
import { check } from "../rubric/points.ts";
import type { AxeRuleOutcome, Impact } from "./observations.ts";

const S = "tech_accessibility_score";

/** Weight of an axe-core rule by its impact (Lighthouse weighs its audits 10, 7 and 3). */
export const IMPACT_WEIGHT: Record<Impact, number> = { critical: 10, serious: 7, moderate: 3, minor: 1 };

/** The axe-core tags run: WCAG 2.0, 2.1 and 2.2 at levels A and AA. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] as const;

/** The accessibility checks as listed: one for the passed rules, one per violated rule; their points vary. */
export const ACCESSIBILITY_CHECKS = {
  passed: {
    id: "a11y.passed",
    score: S,
    label: "Rules passed",
    max: null,
    earns:
      "the weights of all passed rules (always earned); a rule weighs critical 10, serious 7, moderate 3, minor 1",
    remediation: "",
    reference: "axe-core",
  },
  rule: {
    id: "a11y.<rule-id>",
    score: S,
    label: "A violated rule (its axe-core help text)",
    max: null,
    earns: "0 of the rule's weight, one check per violated rule, naming how many elements fail",
    remediation: "Fix what the rule's help text names on every failing element.",
    reference: "axe-core",
  },
} as const satisfies Record<string, CheckListing>;

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
      ACCESSIBILITY_CHECKS.passed.id,
      ACCESSIBILITY_CHECKS.passed.label,
      passedWeight,
      passedWeight,
      `${passed} of ${rules.length} applicable WCAG A/AA rules passed.`,
      "",
    ),
  );
  const score = totalWeight === 0 ? 100 : Math.round((1000 * passedWeight) / totalWeight) / 10;
  return { scores: { [S]: score }, checks, unmeasured: {} };
}
