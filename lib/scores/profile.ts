import type { RankedScoreName, SubScoreName } from "./catalogue.ts";

/**
 * A scan's profile: which measurement parts made its scores. Two scans of one profile were measured on the same
 * sub-scores, so their composites and overall score compare like with like (docs/scores.md).
 */

export interface ProfilePart {
  readonly name: string;
  readonly label: string;
  /** When the part counts in a scan's profile. */
  readonly ran: string;
  /** The sub-scores it measures. */
  readonly measures: readonly SubScoreName[];
}

/** The measurement parts, in the order a profile names them. */
export const PROFILE_PARTS = [
  {
    name: "site",
    label: "Own site and DNS",
    ran: "always, in a scan by unirank's scanner",
    measures: [
      "tech_ssl_score",
      "tech_tls_version_score",
      "tech_hsts_score",
      "tech_security_headers_score",
      "tech_http2_score",
      "tech_seo_score",
      "tech_sitemap_score",
      "webo_size_score",
      "webo_openness_score",
      "i18n_score",
      "i18n_hreflang_score",
      "green_page_weight_score",
      "presence_social_score",
      "presence_video_score",
      "research_orcid_score",
      "research_profiles_score",
      "research_repository_score",
      "email_spf_score",
      "email_dmarc_score",
      "email_dnssec_score",
      "email_security_score",
    ],
  },
  {
    name: "availability",
    label: "Availability probes",
    ran: "the scan was given availability probes of its period (a scheduler probing the home page)",
    measures: ["tech_uptime_score"],
  },
  {
    name: "browser",
    label: "Browser (Chromium)",
    ran: "a Chromium was configured (--chromium); a page that did not load leaves its sub-scores null",
    measures: [
      "tech_speed_desktop_score",
      "tech_speed_mobile_score",
      "tech_core_web_vitals_score",
      "tech_mobile_friendly_score",
      "tech_accessibility_score",
    ],
  },
  {
    name: "openalex",
    label: "OpenAlex (open index)",
    ran: "the source was on (--sources openalex)",
    measures: ["research_publications_score", "research_citations_score", "webo_excellence_score"],
  },
  {
    name: "wikidata",
    label: "Wikidata and Wikipedia (open index)",
    ran: "the source was on (--sources wikidata)",
    measures: ["presence_wikipedia_score"],
  },
  {
    name: "greenweb",
    label: "Green Web Foundation (open index)",
    ran: "the source was on (--sources greenweb)",
    measures: ["green_hosting_score"],
  },
] as const satisfies readonly ProfilePart[];

export type ProfilePartName = (typeof PROFILE_PARTS)[number]["name"];
export const PROFILE_PART_NAMES: readonly ProfilePartName[] = PROFILE_PARTS.map((p) => p.name);

/** The sub-scores of each part. */
export const PART_MEASURES = Object.fromEntries(PROFILE_PARTS.map((p) => [p.name, p.measures])) as {
  readonly [K in ProfilePartName]: Extract<(typeof PROFILE_PARTS)[number], { name: K }>["measures"];
};

/** The profile of a scan unirank did not measure itself (an import that names none, the demo data). */
export const UNKNOWN_PROFILE = "unknown";

/** `profile=all`: rank across every profile. */
export const ALL_PROFILES = "all";

/** The profile of a set of parts: their names in `PROFILE_PARTS` order, joined by commas. */
export function profileOf(parts: Iterable<string>): string {
  const set = new Set(parts);
  const named = PROFILE_PART_NAMES.filter((n) => set.has(n));
  return named.length === 0 ? UNKNOWN_PROFILE : named.join(",");
}

/**
 * A profile as given (import, parameter) in its canonical form, or null when it is not one: `unknown`, or
 * distinct part names in any order, comma-separated.
 */
export function canonicalProfile(text: string): string | null {
  const t = text.trim().toLowerCase();
  if (t === UNKNOWN_PROFILE) return t;
  const names = t.split(",").map((s) => s.trim());
  if (names.some((n) => !(PROFILE_PART_NAMES as readonly string[]).includes(n))) return null;
  if (new Set(names).size !== names.length) return null;
  return profileOf(names);
}

/** The parts a profile names (none for `unknown`). */
export const profileParts = (profile: string): ProfilePartName[] =>
  profile === UNKNOWN_PROFILE ? [] : (profile.split(",") as ProfilePartName[]);

/**
 * Scores whose value depends on which parts measured the scan: overall and the composites (means over whatever
 * sub-scores were measured). A sub-score is the same measurement in every profile.
 */
export const PROFILE_BOUND_SCORES: ReadonlySet<RankedScoreName> = new Set<RankedScoreName>([
  "overall_score",
  "webo_composite_score",
  "tech_composite_score",
  "research_composite_score",
  "presence_composite_score",
]);
