import { type Static, Type } from "@sinclair/typebox";
import { COMPOSITE_SCORES, OVERALL_WEIGHTS, SUB_SCORES } from "../scores/catalogue.ts";
import { PROFILE_PARTS, UNKNOWN_PROFILE } from "../scores/profile.ts";
import { ACCESSIBILITY_CHECKS } from "./browser/accessibility-rubric.ts";
import { MOBILE_CHECKS } from "./browser/mobile-rubric.ts";
import { SPEED_CHECKS } from "./browser/speed-rubric.ts";
import { CWV_CHECKS } from "./browser/web-vitals-rubric.ts";
import { type CheckListing, REFERENCES } from "./rubric/check-table.ts";
import { RUBRIC_VERSION, RUBRIC_VERSIONS } from "./rubric-version.ts";
import { OWN_SITE_CHECKS } from "./score-observations.ts";
import { GREEN_HOSTING_CHECKS } from "./sources/greenweb.ts";
import { OPENALEX_CHECKS } from "./sources/openalex.ts";
import { WIKIPEDIA_CHECKS } from "./sources/wikidata.ts";

/** Every check of every rubric, as the rubrics score with them: the own site, the browser, the open indexes. */
export const RUBRIC_CHECKS: readonly CheckListing[] = [
  ...OWN_SITE_CHECKS,
  ...SPEED_CHECKS.desktop,
  ...SPEED_CHECKS.mobile,
  ...CWV_CHECKS,
  ...Object.values(MOBILE_CHECKS),
  ...Object.values(ACCESSIBILITY_CHECKS),
  ...Object.values(OPENALEX_CHECKS),
  ...Object.values(WIKIPEDIA_CHECKS),
  ...Object.values(GREEN_HOSTING_CHECKS),
];

/** How overall and the composites are ranked, in words (docs/scores.md says the same). */
export const PROFILE_RULE =
  "Overall and the four composites are means over the sub-scores a scan measured, so they compare only between " +
  "scans of one profile: rankings, leaderboards and distributions of them hold one profile, by default the main " +
  "one (the profile of the most universities' latest completed scans; ties: more parts, then name); profile= " +
  "picks another and profile=all ranks across profiles, each row's profile then differing. A sub-score is the " +
  "same measurement in every profile and ranks across them. Regressions of overall and the composites compare " +
  "two scans of one profile only. v1 /rankings ranks every university unless profile= narrows it.";

const Text = (description: string) => Type.String({ description });

export const MethodologySchema = Type.Object({
  rubric_version: Type.Integer({ description: "The current version of unirank's rubrics" }),
  rubric_versions: Type.Array(Type.Object({ version: Type.Integer(), summary: Type.String() }), {
    description: "Every rubric version and what it changed, oldest first",
  }),
  checks: Type.Array(
    Type.Object({
      id: Text(
        "`<area>.<check>`, as in a scan's evidence (`a11y.<rule-id>` stands for one per violated rule)",
      ),
      score: Text("The sub-score it counts towards"),
      label: Type.String(),
      max: Type.Union([Type.Number(), Type.Null()], {
        description:
          "Points possible (for the security headers, the best modifier); null when they depend on the page",
      }),
      earns: Text("What earns the points"),
      reference: Text("The reference it follows: a key of `references`"),
    }),
    { description: "Every check of every rubric" },
  ),
  references: Type.Record(Type.String(), Type.Object({ title: Type.String(), url: Type.String() }), {
    description: "The references the rubrics follow, by key",
  }),
  sub_scores: Type.Array(
    Type.Object({
      name: Type.String(),
      label: Type.String(),
      group: Type.String(),
      measures: Type.String(),
      part: Type.Union([Type.String(), Type.Null()], {
        description: "The measurement part that measures it; null when only an import supplies it",
      }),
    }),
  ),
  composites: Type.Array(
    Type.Object({
      name: Type.String(),
      label: Type.String(),
      from: Type.Array(Type.String(), {
        description: "The sub-scores averaged (unmeasured ones are skipped)",
      }),
      weight: Type.Number({
        description: "Weight in overall_score (a null composite's weight is shared out)",
      }),
    }),
  ),
  profiles: Type.Object({
    parts: Type.Array(
      Type.Object({
        name: Type.String(),
        label: Type.String(),
        ran: Text("When the part counts in a scan's profile"),
        measures: Type.Array(Type.String()),
      }),
      { description: "The measurement parts, in the order a profile names them" },
    ),
    unknown: Text("What the profile `unknown` means"),
    rule: Text("How rankings compare like with like"),
  }),
});

export type Methodology = Static<typeof MethodologySchema>;

/** How unirank scores: every check, the composites and their weights, the profiles and the ranking rule. */
export function methodology(): Methodology {
  const partOf = new Map<string, string>();
  for (const p of PROFILE_PARTS) for (const m of p.measures) partOf.set(m, p.name);
  return {
    rubric_version: RUBRIC_VERSION,
    rubric_versions: RUBRIC_VERSIONS.map((v) => ({ ...v })),
    checks: RUBRIC_CHECKS.map(({ id, score, label, max, earns, reference }) => ({
      id,
      score,
      label,
      max,
      earns,
      reference,
    })),
    references: Object.fromEntries(
      Object.entries(REFERENCES).map(([k, r]) => [k, { title: r.title, url: r.url }]),
    ),
    sub_scores: SUB_SCORES.map((s) => ({
      name: s.name,
      label: s.label,
      group: s.group,
      measures: s.measures,
      part: partOf.get(s.name) ?? null,
    })),
    composites: COMPOSITE_SCORES.map((c) => ({
      name: c.name,
      label: c.label,
      from: [...c.from],
      weight: OVERALL_WEIGHTS[c.name] ?? 0,
    })),
    profiles: {
      parts: PROFILE_PARTS.map((p) => ({
        name: p.name,
        label: p.label,
        ran: p.ran,
        measures: [...p.measures],
      })),
      unknown: `${UNKNOWN_PROFILE}: scores unirank did not measure itself (an import that names no profile, the demo data)`,
      rule: PROFILE_RULE,
    },
  };
}
