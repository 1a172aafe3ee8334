/**
 * `unirank/scanner`: the scanner's pure side, with no database and no network: what a scan observes, the rubrics
 * that turn observations into points and sub-scores (docs/scanner.md), the evidence a scan keeps, and what a
 * measurement part is given and gives back. The helpers behind the rubrics are not exported. Storing a scan and the
 * scheduler are in `unirank`.
 */

export type { CheckPoints, ScoredPart } from "../scores/check-points.ts";
// The browser's observations and rubrics (speed, Core Web Vitals, mobile, accessibility).
export { AXE_TAGS, scoreAccessibility } from "./browser/accessibility-rubric.ts";
export { type LogNormalCurve, logNormalScore } from "./browser/log-normal.ts";
export { parseViewport, scoreMobileFriendly, wellSizedTargets } from "./browser/mobile-rubric.ts";
export { AxeRuleOutcome, BrowserObservations, MobileLayout, PageTimings } from "./browser/observations.ts";
export { BROWSER_SCORES, scoreBrowserObservations } from "./browser/rubric.ts";
export { type FormFactor, scoreSpeed } from "./browser/speed-rubric.ts";
export { scoreWebVitals } from "./browser/web-vitals-rubric.ts";
// The own-site rubrics: observations → points → sub-scores.
export { scoreDmarc, scoreDnssec, scoreEmailSecurity, scoreSpf } from "./email.ts";
// The evidence a scan keeps, and how it is cut to fit the writer's cap.
export { CheckPointsSchema, fitEvidence, type ScanEvidence, ScanEvidenceSchema } from "./evidence.ts";
export { type HstsPolicy, parseHsts, scoreHsts } from "./hsts.ts";
export { scoreHttp2 } from "./http2.ts";
export { scoreHreflang, scoreI18n } from "./languages.ts";
export {
  isNotableLink,
  scoreOpenness,
  scoreOrcid,
  scoreRepository,
  scoreScholarProfiles,
  scoreSocial,
  scoreVideo,
} from "./links.ts";
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
  type TlsObservation,
  TlsObservationSchema,
  type TlsVersions,
  TlsVersionsSchema,
} from "./observations.ts";
export { scorePageWeight } from "./page-weight.ts";
// A measurement part (a browser, an open index): what it is given, and the points helpers it scores with.
export type { PartContext, ScanPart } from "./part.ts";
export {
  check,
  mergeParts,
  scoredFrom,
  scoreFromChecks,
  tiered,
  unmeasured,
  unmeasuredPart,
} from "./points.ts";
// One scan: its target and outcome.
export { failedOutcome, type ScanOutcome, type ScanTarget } from "./scan-outcome.ts";
export { completeScores, scoreObservations } from "./score-observations.ts";
export { parseCsp, scoreSecurityHeaders } from "./security-headers.ts";
export { scoreSeo } from "./seo.ts";
export { scoreSitemap, scoreWebSize } from "./sitemap.ts";
// The open indexes' answers and rubrics (Green Web Foundation, OpenAlex, Wikidata).
export { GreenCheck, scoreGreenCheck } from "./sources/greenweb.ts";
export { sameSite, siteHost } from "./sources/host-match.ts";
export {
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
  WikidataEntities,
  WikidataObservations,
  WikidataSearch,
} from "./sources/wikidata.ts";
export { scoreTlsCertificate } from "./tls-certificate.ts";
export { scoreTlsVersions } from "./tls-versions.ts";
export { scoreUptime, uptimePercent } from "./uptime.ts";
