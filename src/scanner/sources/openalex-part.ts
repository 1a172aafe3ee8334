import {
  OpenAlexCount,
  OpenAlexInstitutionList,
  type OpenAlexObservations,
  type PartContext,
  pickInstitution,
  type ScanTarget,
  type ScoredPart,
  scoreOpenAlex,
  unmeasuredPart,
  worksInYears,
} from "../../../lib/scanner/index.ts";
import { fetchJson, requestOptions, type SourceOptions, trimBase } from "./fetch-json.ts";

export const OPENALEX_BASE_URL = "https://api.openalex.org";
const SCORES = ["research_publications_score", "research_citations_score", "webo_excellence_score"] as const;

export interface OpenAlexPartOptions extends SourceOptions {
  /** The clock that decides the last five complete years (default: now). */
  now?: () => Date;
}

/**
 * OpenAlex: finds the institution by name (and country) whose homepage is on the university's domain, then
 * counts its top-ten-percent cited works of the last five complete years.
 */
export function openAlexPart(options: OpenAlexPartOptions = {}) {
  const base = trimBase(options.baseUrl ?? OPENALEX_BASE_URL);
  return async (
    target: ScanTarget,
    context: PartContext,
  ): Promise<ScoredPart & { observations?: OpenAlexObservations }> => {
    if (!target.name) return unmeasuredPart(SCORES, "no university name to search OpenAlex with");
    const req = requestOptions(options, context.userAgent, context.signal);
    const query = new URLSearchParams({ search: target.name, "per-page": "25" });
    if (target.country) query.set("filter", `country_code:${target.country.toUpperCase()}`);
    const list = await fetchJson<OpenAlexInstitutionList>(
      "OpenAlex",
      `${base}/institutions?${query}`,
      OpenAlexInstitutionList,
      req,
    );
    if (!list.ok) return unmeasuredPart(SCORES, list.reason);
    const inst = pickInstitution(list.value, target.domain);
    if (inst === null) {
      return unmeasuredPart(
        SCORES,
        `OpenAlex lists no institution named like "${target.name}" on ${target.domain}`,
      );
    }
    const year = (options.now?.() ?? new Date()).getUTCFullYear();
    const years: [number, number] = [year - 5, year - 1];
    const shortId = inst.id.replace(/^https?:\/\/openalex\.org\//, "");
    const filter = [
      `institutions.id:${shortId}`,
      `from_publication_date:${years[0]}-01-01`,
      `to_publication_date:${years[1]}-12-31`,
      "citation_normalized_percentile.is_in_top_10_percent:true",
    ].join(",");
    const top = await fetchJson<{ meta: { count: number } }>(
      "OpenAlex",
      `${base}/works?${new URLSearchParams({ filter, "per-page": "1", select: "id" })}`,
      OpenAlexCount,
      req,
    );
    const observations: OpenAlexObservations = {
      institutionId: inst.id,
      name: inst.display_name,
      homepage: inst.homepage_url ?? "",
      years,
      works: worksInYears(inst, years[0], years[1]),
      meanCitedness2y: inst.summary_stats?.["2yr_mean_citedness"] ?? null,
      hIndex: inst.summary_stats?.h_index ?? null,
      top10Works: top.ok ? top.value.meta.count : null,
    };
    const scored = scoreOpenAlex(observations);
    if (!top.ok) scored.unmeasured.webo_excellence_score = top.reason;
    return { ...scored, observations };
  };
}
