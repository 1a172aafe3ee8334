import { type Static, Type } from "@sinclair/typebox";
import type { ScoredPart } from "../../scores/check-points.ts";
import { type CheckDefinition, earned } from "../rubric/check-table.ts";
import { scoreFromChecks } from "../rubric/points.ts";
import { logShare, sameSite } from "./host-match.ts";

/** The fields unirank reads of an OpenAlex institution object (GET /institutions). */
export const OpenAlexInstitution = Type.Object({
  id: Type.String(),
  display_name: Type.String(),
  homepage_url: Type.Union([Type.String(), Type.Null()]),
  country_code: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  works_count: Type.Integer({ minimum: 0 }),
  cited_by_count: Type.Integer({ minimum: 0 }),
  summary_stats: Type.Optional(
    Type.Object({
      "2yr_mean_citedness": Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
      h_index: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    }),
  ),
  counts_by_year: Type.Optional(
    Type.Array(
      Type.Object({
        year: Type.Integer(),
        works_count: Type.Integer({ minimum: 0 }),
        cited_by_count: Type.Integer({ minimum: 0 }),
      }),
    ),
  ),
});
export type OpenAlexInstitution = Static<typeof OpenAlexInstitution>;

/** A list answer of OpenAlex: the match count and one page of results. */
export const OpenAlexInstitutionList = Type.Object({
  meta: Type.Object({ count: Type.Integer({ minimum: 0 }) }),
  results: Type.Array(OpenAlexInstitution),
});
export type OpenAlexInstitutionList = Static<typeof OpenAlexInstitutionList>;

/** The count of a works query (only `meta.count` is read). */
export const OpenAlexCount = Type.Object({ meta: Type.Object({ count: Type.Integer({ minimum: 0 }) }) });

/** What OpenAlex says of the university. */
export const OpenAlexObservations = Type.Object({
  institutionId: Type.String(),
  name: Type.String(),
  homepage: Type.String(),
  /** The window of complete years counted: [first, last]. */
  years: Type.Tuple([Type.Integer(), Type.Integer()]),
  works: Type.Integer({ minimum: 0 }),
  meanCitedness2y: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  hIndex: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  /** Works of the window in the top ten percent most cited of their field and year; null when that query failed. */
  top10Works: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
});
export type OpenAlexObservations = Static<typeof OpenAlexObservations>;

/** Points thresholds: values at which a check earns all its points. */
export const OPENALEX_FULL = { works: 25_000, meanCitedness: 4, hIndex: 500, top10Works: 10_000 } as const;

const openalexCheck = (
  id: string,
  score: CheckDefinition["score"],
  label: string,
  max: number,
  earns: string,
  remediation: string,
): CheckDefinition => ({ id, score, label, max, earns, remediation, reference: "openalex" });

export const OPENALEX_CHECKS = {
  works: openalexCheck(
    "openalex.works",
    "research_publications_score",
    "Publications indexed",
    100,
    "works of the last five complete years (`counts_by_year`), `100 × log10(1+n) / log10(1+25,000)`, capped",
    "Record affiliations consistently (ROR id) so the institution's output is attributed to it.",
  ),
  citedness: openalexCheck(
    "openalex.mean-citedness",
    "research_citations_score",
    "Mean citedness (2 years)",
    60,
    "`60 × min(1, 2yr_mean_citedness / 4)`",
    "Publish openly and in venues where the work is read and cited.",
  ),
  hIndex: openalexCheck(
    "openalex.h-index",
    "research_citations_score",
    "h-index",
    40,
    "`40 × log10(1+h) / log10(1+500)`, capped",
    "Sustained, cited output raises the h-index.",
  ),
  top: openalexCheck(
    "openalex.top10-works",
    "webo_excellence_score",
    "Top-10 % cited works",
    100,
    "`100 × log10(1+n) / log10(1+10,000)`, capped",
    "Excellence grows with highly cited papers attributed to the institution.",
  ),
} as const;

/** The institution among search results whose homepage is on the university's domain (first such). */
export function pickInstitution(list: OpenAlexInstitutionList, domain: string): OpenAlexInstitution | null {
  return list.results.find((r) => r.homepage_url !== null && sameSite(r.homepage_url, domain)) ?? null;
}

/** Works published in the complete years `[first, last]`, from `counts_by_year`. */
export function worksInYears(inst: OpenAlexInstitution, first: number, last: number): number {
  let n = 0;
  for (const c of inst.counts_by_year ?? []) if (c.year >= first && c.year <= last) n += c.works_count;
  return n;
}

/**
 * Publications (works of the last five complete years, log scale, 100 points at 25,000), citations (2-year mean
 * citedness 60 points at 4.0, linear; h-index 40 points at 500, log scale) and excellence (top-ten-percent works of the
 * window, log scale, 100 points at 10,000).
 */
export function scoreOpenAlex(o: OpenAlexObservations): ScoredPart {
  const span = `${o.years[0]}–${o.years[1]}`;
  const works = earned(
    OPENALEX_CHECKS.works,
    100 * logShare(o.works, OPENALEX_FULL.works),
    `${o.works} works of ${o.name} in OpenAlex for ${span}.`,
  );
  const citedness = earned(
    OPENALEX_CHECKS.citedness,
    o.meanCitedness2y === null ? 0 : 60 * Math.min(1, o.meanCitedness2y / OPENALEX_FULL.meanCitedness),
    o.meanCitedness2y === null
      ? "OpenAlex gives no 2-year mean citedness."
      : `2-year mean citedness ${o.meanCitedness2y.toFixed(2)} (60 points at ${OPENALEX_FULL.meanCitedness}).`,
  );
  const hIndex = earned(
    OPENALEX_CHECKS.hIndex,
    o.hIndex === null ? 0 : 40 * logShare(o.hIndex, OPENALEX_FULL.hIndex),
    o.hIndex === null ? "OpenAlex gives no h-index." : `h-index ${o.hIndex}.`,
  );
  const parts: ScoredPart = {
    scores: {
      research_publications_score: scoreFromChecks([works]),
      research_citations_score: scoreFromChecks([citedness, hIndex]),
    },
    checks: [works, citedness, hIndex],
    unmeasured: {},
  };
  if (o.top10Works === null) {
    parts.scores.webo_excellence_score = null;
    parts.unmeasured.webo_excellence_score = "OpenAlex did not answer the top-10 % works query.";
  } else {
    const top = earned(
      OPENALEX_CHECKS.top,
      100 * logShare(o.top10Works, OPENALEX_FULL.top10Works),
      `${o.top10Works} works of ${span} are in the top 10 % most cited of their field and year.`,
    );
    parts.scores.webo_excellence_score = scoreFromChecks([top]);
    parts.checks.push(top);
  }
  return parts;
}
