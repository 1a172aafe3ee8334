import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { BrowserObservations } from "./browser/observations.ts";
import { ObservationsSchema } from "./observations.ts";
import { GreenCheck } from "./sources/greenweb.ts";
import { OpenAlexObservations } from "./sources/openalex.ts";
import { WikidataObservations } from "./sources/wikidata.ts";

export const CheckPointsSchema = Type.Object({
  id: Type.String({ description: "`<area>.<check>`, documented in docs/scanner.md" }),
  score: Type.String({ description: "The sub-score the check counts towards" }),
  label: Type.String(),
  points: Type.Number(),
  max: Type.Number(),
  detail: Type.String({ description: "What was observed" }),
  remediation: Type.Union([Type.String(), Type.Null()], { description: "How to earn the missing points" }),
});

export const RubricGradeSchema = Type.Object({
  scale: Type.String({ description: "The reference whose scale it is, e.g. `mdn-observatory`" }),
  score: Type.Number({ description: "The reference's score before unirank's 0–100 clamp" }),
  grade: Type.String({ description: "A+ … F on the HTTP Observatory's grade chart" }),
  tests: Type.Record(Type.String(), Type.Object({ result: Type.String(), modifier: Type.Number() })),
});

/** A part's observations: typed for the code, an object in the API's schema (their fields are documented). */
const observed = <T extends TSchema>(_schema: T, description: string) =>
  Type.Optional(Type.Unsafe<Static<T>>({ type: "object", description }));

/** What the measurement parts beyond the own site observed, by the part's name in the profile. */
export const PartObservationsSchema = Type.Object(
  {
    browser: observed(BrowserObservations, "Chromium's timings, mobile layout and axe-core rule outcomes"),
    openalex: observed(OpenAlexObservations, "The OpenAlex institution and its counts"),
    wikidata: observed(WikidataObservations, "The Wikidata item and its Wikipedia editions"),
    greenweb: observed(GreenCheck, "The Green Web Foundation's greencheck answer"),
  },
  {
    description:
      "Observations of the browser and the open-index sources (docs/scanner-browser-and-sources.md), so their sub-scores re-score too",
  },
);
export type PartObservations = Static<typeof PartObservationsSchema>;

/** What a scan keeps besides its scores: the observations, the points of every check, why a score is null. */
export const ScanEvidenceSchema = Type.Object(
  {
    observations: Type.Union([ObservationsSchema, Type.Null()]),
    parts: Type.Optional(PartObservationsSchema),
    checks: Type.Array(CheckPointsSchema),
    unmeasured: Type.Record(Type.String(), Type.String(), { description: "Sub-score → why it is null" }),
    grades: Type.Optional(
      Type.Record(Type.String(), RubricGradeSchema, {
        description:
          "Sub-score → its grade on its reference's scale (the security headers' Observatory grade)",
      }),
    ),
    failure_reason: Type.Optional(Type.String({ description: "Why a failed scan failed" })),
  },
  { description: "Observations and per-check points behind a scan's scores (scans made by `unirank scan`)" },
);

export type ScanEvidence = Static<typeof ScanEvidenceSchema>;

/**
 * The evidence cut to at most `maxChars` characters of JSON: first each page's links beyond 50, then the crawled
 * pages after the home page, then the parts' observations, then the observations altogether (the checks and
 * reasons are always kept).
 */
export function fitEvidence(evidence: ScanEvidence, maxChars: number): ScanEvidence {
  const size = (e: ScanEvidence) => JSON.stringify(e).length;
  if (size(evidence) <= maxChars || !evidence.observations) return evidence;
  const o = evidence.observations;
  const fewerLinks: ScanEvidence = {
    ...evidence,
    observations: { ...o, pages: o.pages.map((p) => ({ ...p, links: p.links.slice(0, 50) })) },
  };
  if (size(fewerLinks) <= maxChars) return fewerLinks;
  const homeOnly: ScanEvidence = {
    ...fewerLinks,
    observations: { ...o, pages: (fewerLinks.observations?.pages ?? []).slice(0, 1) },
  };
  if (size(homeOnly) <= maxChars) return homeOnly;
  const { parts: _, ...withoutParts } = homeOnly;
  if (evidence.parts && size(withoutParts) <= maxChars) return withoutParts;
  const { parts: __, ...rest } = evidence;
  return { ...rest, observations: null };
}
