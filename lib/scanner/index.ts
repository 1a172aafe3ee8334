/**
 * `unirank/scanner`: the scanner's pure side, with no database and no network: what a scan observes, the rubrics
 * that turn observations into points and sub-scores (docs/scanner.md), the evidence a scan keeps, and what a
 * measurement part is given and gives back. The helpers behind the rubrics are not exported. Storing a scan and the
 * scheduler are in `unirank`.
 */

export type { CheckPoints, ScoredPart } from "../scores/check-points.ts";
// A scan's profile: the measurement parts that ran (docs/scores.md).
export { PART_MEASURES, type ProfilePartName, profileOf } from "../scores/profile.ts";
// The browser's observations and rubrics (speed, Core Web Vitals, mobile, accessibility).
export { ACCESSIBILITY_CHECKS, AXE_TAGS, scoreAccessibility } from "./browser/accessibility-rubric.ts";
export { type LogNormalCurve, logNormalScore } from "./browser/log-normal.ts";
export {
  MOBILE_CHECKS,
  parseViewport,
  scoreMobileFriendly,
  wellSizedTargets,
} from "./browser/mobile-rubric.ts";
export { AxeRuleOutcome, BrowserObservations, MobileLayout, PageTimings } from "./browser/observations.ts";
export { BROWSER_SCORES, scoreBrowserObservations } from "./browser/rubric.ts";
export { type FormFactor, SPEED_CHECKS, scoreSpeed } from "./browser/speed-rubric.ts";
export { CWV_CHECKS, scoreWebVitals } from "./browser/web-vitals-rubric.ts";
// The references' own parsers and tests, as unirank implements them (docs/scanner.md).
export { CspSyntaxError, type ParsedCsp, parseCsp, parseCspMeta, splitPolicies } from "./csp-parser.ts";
export {
  type DmarcParse,
  type DmarcPolicy,
  type DmarcRecord,
  discoverDmarc,
  isDmarcRecord,
  parseDmarc,
} from "./dmarc.ts";
// The own-site rubrics: observations → points → sub-scores.
export {
  DMARC_CHECKS,
  DNSSEC_CHECKS,
  EMAIL_CHECKS,
  SPF_CHECKS,
  scoreDmarc,
  scoreDnssec,
  scoreEmailSecurity,
  scoreSpf,
  spfPolicy,
} from "./email.ts";
// The evidence a scan keeps, and how it is cut to fit the writer's cap.
export {
  CheckPointsSchema,
  fitEvidence,
  type PartObservations,
  PartObservationsSchema,
  type ScanEvidence,
  ScanEvidenceSchema,
} from "./evidence.ts";
export {
  HSTS_CHECKS,
  HSTS_ONE_YEAR,
  HSTS_SIX_MONTHS,
  type HstsPolicy,
  parseHsts,
  scoreHsts,
} from "./hsts.ts";
export { scoreHttp2 } from "./http2.ts";
export { HREFLANG_CHECKS, I18N_CHECKS, scoreHreflang, scoreI18n } from "./languages.ts";
export {
  isNotableLink,
  OPENNESS_CHECKS,
  ORCID_CHECKS,
  PROFILE_CHECKS,
  REPOSITORY_CHECKS,
  SOCIAL_CHECKS,
  scoreOpenness,
  scoreOrcid,
  scoreRepository,
  scoreScholarProfiles,
  scoreSocial,
  scoreVideo,
  VIDEO_CHECKS,
} from "./links.ts";
// The methodology (every check, composites, profiles), re-scoring stored evidence, the rubric version.
export {
  type Methodology,
  MethodologySchema,
  methodology,
  PROFILE_RULE,
  RUBRIC_CHECKS,
} from "./methodology.ts";
// What a scan observes.
export {
  type Availability,
  AvailabilitySchema,
  type DnsObservation,
  DnsSchema,
  type HomeObservation,
  HomeSchema,
  type HttpRedirect,
  HttpRedirectSchema,
  type Observations,
  ObservationsSchema,
  type PageObservation,
  PageSchema,
  type RobotsObservation,
  RobotsSchema,
  type SitemapObservation,
  SitemapSchema,
  type SpfDnsAnswer,
  SpfDnsAnswerSchema,
  type TlsObservation,
  TlsObservationSchema,
  type TlsVersions,
  TlsVersionsSchema,
} from "./observations.ts";
export {
  type CspOutcome,
  type CspPolicy,
  cspTest,
  GRADE_CHART,
  gradeForScore,
  type HttpRoute,
  type HttpsResponse,
  hstsTest,
  MINIMUM_SCORE_FOR_EXTRA_CREDIT,
  OBSERVATORY_RESULTS,
  type ObservatoryExpectation,
  type ObservatoryPage,
  redirectionTest,
  referrerPolicyTest,
  xContentTypeOptionsTest,
  xFrameOptionsTest,
} from "./observatory.ts";
export { PAGE_WEIGHT_CHECKS, scorePageWeight } from "./page-weight.ts";
// A measurement part (a browser, an open index): what it is given, and the points helpers it scores with.
export type { PartContext, ScanPart } from "./part.ts";
export { type Rescored, rescoreEvidence } from "./rescore-evidence.ts";
// The check tables: every check's id, sub-score, maximum, what earns it and the reference it follows.
export {
  type CheckDefinition,
  type CheckListing,
  checkTable,
  earned,
  REFERENCES,
  type ReferenceId,
} from "./rubric/check-table.ts";
export {
  check,
  mergeParts,
  scoredFrom,
  scoreFromChecks,
  tiered,
  unmeasured,
  unmeasuredPart,
} from "./rubric/points.ts";
export { RUBRIC_VERSION, RUBRIC_VERSIONS } from "./rubric-version.ts";
// One scan: its target and outcome.
export { failedOutcome, type ScanOutcome, type ScanTarget } from "./scan-outcome.ts";
export { completeScores, OWN_SITE_CHECKS, scoreObservations } from "./score-observations.ts";
export {
  httpRoute,
  httpsResponse,
  observatoryPage,
  observatoryScore,
  SECURITY_HEADER_CHECKS,
  scoreSecurityHeaders,
} from "./security-headers.ts";
export { SEO_CHECKS, scoreSeo } from "./seo.ts";
export { SITEMAP_CHECKS, scoreSitemap, scoreWebSize, WEB_SIZE_CHECKS } from "./sitemap.ts";
// The open indexes' answers and rubrics (Green Web Foundation, OpenAlex, Wikidata).
export { GREEN_HOSTING_CHECKS, GreenCheck, scoreGreenCheck } from "./sources/greenweb.ts";
export { sameSite, siteHost } from "./sources/host-match.ts";
export {
  OPENALEX_CHECKS,
  OpenAlexCount,
  OpenAlexInstitutionList,
  OpenAlexObservations,
  pickInstitution,
  scoreOpenAlex,
  worksInYears,
} from "./sources/openalex.ts";
export {
  pickItem,
  scoreWikidata,
  WIKIPEDIA_CHECKS,
  WikidataEntities,
  WikidataObservations,
  WikidataSearch,
} from "./sources/wikidata.ts";
export {
  evaluateSpf,
  evaluateSpfPolicy,
  MAX_DNS_TERMS,
  MAX_VOID_LOOKUPS,
  runSpf,
  runSpfAsync,
  type SpfAnswer,
  type SpfClient,
  type SpfEvaluation,
  type SpfQueryType,
  type SpfQuestion,
  type SpfResult,
  spfRecords,
} from "./spf.ts";
export { scoreTlsCertificate, TLS_CERTIFICATE_CHECKS } from "./tls-certificate.ts";
export { scoreTlsVersions, TLS_VERSION_CHECKS } from "./tls-versions.ts";
export { scoreUptime, UPTIME_CHECKS, uptimePercent } from "./uptime.ts";
