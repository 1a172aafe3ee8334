/** The score catalogue: every score unirank knows, what it measures, and how composites derive. */

export type ScoreGroup = "overall" | "composite" | "webometrics" | "research" | "presence" | "technical";

export interface ScoreDefinition {
  readonly name: string;
  readonly group: ScoreGroup;
  readonly label: string;
  readonly measures: string;
  /** For composites: the scores averaged into it (nulls are skipped). */
  readonly from?: readonly string[];
}

const sub = <N extends string>(group: ScoreGroup, name: N, label: string, measures: string) =>
  ({ name, group, label, measures }) as ScoreDefinition & { readonly name: N };

export const WEBOMETRICS_SCORES = [
  sub("webometrics", "webo_size_score", "Web size", "Pages of the main domain indexed by search engines"),
  sub("webometrics", "webo_visibility_score", "Visibility", "External networks linking to the domain"),
  sub(
    "webometrics",
    "webo_openness_score",
    "Openness",
    "Rich files and papers openly reachable on the domain",
  ),
  sub(
    "webometrics",
    "webo_excellence_score",
    "Excellence",
    "Highly cited papers attributed to the institution",
  ),
] as const;

export const RESEARCH_SCORES = [
  sub("research", "research_publications_score", "Publications", "Publication output found in open indexes"),
  sub("research", "research_citations_score", "Citations", "Citations per publication, field-normalised"),
  sub(
    "research",
    "research_repository_score",
    "Repository",
    "An open-access institutional repository is reachable",
  ),
  sub("research", "research_orcid_score", "ORCID", "Share of staff pages linking an ORCID iD"),
  sub("research", "research_profiles_score", "Scholar profiles", "Researchers with public scholar profiles"),
] as const;

export const PRESENCE_SCORES = [
  sub("presence", "presence_social_score", "Social media", "Active, linked official social media accounts"),
  sub(
    "presence",
    "presence_wikipedia_score",
    "Wikipedia",
    "Quality and language coverage of Wikipedia articles",
  ),
  sub("presence", "presence_news_score", "News", "Mentions in news sources over the last year"),
  sub("presence", "presence_video_score", "Video", "Official video channel activity"),
  sub("presence", "i18n_score", "Internationalisation", "Languages offered and completeness of translations"),
  sub("presence", "i18n_hreflang_score", "hreflang", "Correct hreflang and lang attributes across pages"),
] as const;

export const TECHNICAL_SCORES = [
  sub("technical", "tech_ssl_score", "TLS certificate", "Valid certificate, complete chain, strong key"),
  sub("technical", "tech_tls_version_score", "TLS versions", "TLS 1.3 offered, legacy versions disabled"),
  sub("technical", "tech_hsts_score", "HSTS", "Strict-Transport-Security with a long max-age"),
  sub(
    "technical",
    "tech_security_headers_score",
    "Security headers",
    "CSP, frame, referrer and content-type headers",
  ),
  sub(
    "technical",
    "tech_speed_desktop_score",
    "Speed (desktop)",
    "Lab performance score of the home page on desktop",
  ),
  sub(
    "technical",
    "tech_speed_mobile_score",
    "Speed (mobile)",
    "Lab performance score of the home page on mobile",
  ),
  sub(
    "technical",
    "tech_core_web_vitals_score",
    "Core Web Vitals",
    "LCP, INP and CLS within good thresholds",
  ),
  sub("technical", "tech_http2_score", "HTTP/2 and HTTP/3", "Modern HTTP protocol support"),
  sub(
    "technical",
    "tech_mobile_friendly_score",
    "Mobile friendly",
    "Viewport, tap targets and readable font sizes",
  ),
  sub("technical", "tech_accessibility_score", "Accessibility", "Automated WCAG 2.2 checks on key pages"),
  sub("technical", "tech_seo_score", "SEO", "Titles, descriptions, canonical links and crawlability"),
  sub("technical", "tech_sitemap_score", "Sitemap and robots", "A valid sitemap and a sane robots.txt"),
  sub("technical", "tech_uptime_score", "Availability", "Answered probes over the scan period"),
  sub(
    "technical",
    "email_security_score",
    "Email security",
    "Overall mail posture: SPF, DKIM, DMARC, MTA-STS",
  ),
  sub("technical", "email_spf_score", "SPF", "A strict SPF record"),
  sub("technical", "email_dmarc_score", "DMARC", "A DMARC policy of quarantine or reject"),
  sub("technical", "email_dnssec_score", "DNSSEC", "Signed DNS zone with a valid chain"),
  sub("technical", "green_hosting_score", "Green hosting", "Hosting on verified renewable energy"),
  sub("technical", "green_page_weight_score", "Page weight", "Bytes transferred for the home page"),
] as const;

const names = (list: readonly ScoreDefinition[]) => list.map((s) => s.name);

export const COMPOSITE_SCORES = [
  {
    name: "webo_composite_score",
    group: "composite",
    label: "Webometrics",
    measures: "Mean of the webometrics sub-scores",
    from: names(WEBOMETRICS_SCORES),
  },
  {
    name: "tech_composite_score",
    group: "composite",
    label: "Technical",
    measures: "Mean of the technical, email and green sub-scores",
    from: names(TECHNICAL_SCORES),
  },
  {
    name: "research_composite_score",
    group: "composite",
    label: "Research",
    measures: "Mean of the research sub-scores",
    from: names(RESEARCH_SCORES),
  },
  {
    name: "presence_composite_score",
    group: "composite",
    label: "Presence",
    measures: "Mean of the presence and internationalisation sub-scores",
    from: names(PRESENCE_SCORES),
  },
] as const satisfies readonly ScoreDefinition[];

/** Weights of the composites in `overall_score`; weights of missing composites are redistributed. */
export const OVERALL_WEIGHTS: Readonly<Record<string, number>> = {
  webo_composite_score: 0.3,
  tech_composite_score: 0.3,
  research_composite_score: 0.25,
  presence_composite_score: 0.15,
};

export const OVERALL_SCORE = {
  name: "overall_score" as const,
  group: "overall",
  label: "Overall",
  measures:
    "Weighted mean of the four composites (30 % webometrics, 30 % technical, 25 % research, 15 % presence)",
  from: Object.keys(OVERALL_WEIGHTS),
} satisfies ScoreDefinition;

export const SUB_SCORES = [
  ...WEBOMETRICS_SCORES,
  ...RESEARCH_SCORES,
  ...PRESENCE_SCORES,
  ...TECHNICAL_SCORES,
] as const;

export type SubScoreName = (typeof SUB_SCORES)[number]["name"];
export type CompositeScoreName = (typeof COMPOSITE_SCORES)[number]["name"];
export type ScoreName = "overall_score" | CompositeScoreName | SubScoreName;

/** Every score in display order: overall, composites, then sub-scores. */
export const SCORES: readonly ScoreDefinition[] = [OVERALL_SCORE, ...COMPOSITE_SCORES, ...SUB_SCORES];
export const SCORE_NAMES = SCORES.map((s) => s.name) as readonly ScoreName[];
export const SUB_SCORE_NAMES = names(SUB_SCORES) as readonly SubScoreName[];
export const SCORE_BY_NAME: ReadonlyMap<string, ScoreDefinition> = new Map(SCORES.map((s) => [s.name, s]));

/** The 13 leaderboard categories, each mapped to exactly one score. */
export const CATEGORIES = {
  overall: "overall_score",
  security: "tech_security_headers_score",
  research: "research_composite_score",
  technical: "tech_composite_score",
  webometrics: "webo_composite_score",
  presence: "presence_composite_score",
  accessibility: "tech_accessibility_score",
  ssl: "tech_ssl_score",
  email: "email_security_score",
  green: "green_hosting_score",
  i18n: "i18n_score",
  performance: "tech_speed_mobile_score",
  seo: "tech_seo_score",
} as const;

export type Category = keyof typeof CATEGORIES;
export const CATEGORY_NAMES = Object.keys(CATEGORIES) as Category[];

/** v1 `/rankings?sort=` keys and the score each sorts by. */
export const RANKING_SORTS = {
  overall: "overall_score",
  webometrics: "webo_composite_score",
  technical: "tech_composite_score",
  research: "research_composite_score",
  presence: "presence_composite_score",
} as const;
export type RankingSort = keyof typeof RANKING_SORTS;

/** Scores kept on the materialised latest-scan row (every score a ranking or leaderboard can order by). */
export type RankedScoreName = (typeof CATEGORIES)[Category] | (typeof RANKING_SORTS)[RankingSort];
export const RANKED_SCORES: readonly RankedScoreName[] = [
  ...new Set<RankedScoreName>([...Object.values(RANKING_SORTS), ...Object.values(CATEGORIES)]),
];
