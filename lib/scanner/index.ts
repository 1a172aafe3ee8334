/** `unirank/scanner`: the scanner's pure side — observation types, the rubrics that turn them into points, evidence. */

export * from "../scores/check-points.ts";
export * from "./browser/accessibility-rubric.ts";
export * from "./browser/log-normal.ts";
export * from "./browser/mobile-rubric.ts";
export * from "./browser/observations.ts";
export * from "./browser/rubric.ts";
export * from "./browser/speed-rubric.ts";
export * from "./browser/web-vitals-rubric.ts";
export * from "./csp-parser.ts";
export * from "./dmarc.ts";
export * from "./email.ts";
export * from "./evidence.ts";
export * from "./hsts.ts";
export * from "./http2.ts";
export * from "./languages.ts";
export * from "./links.ts";
export * from "./methodology.ts";
export * from "./observations.ts";
export * from "./observatory.ts";
export * from "./page-weight.ts";
export * from "./part.ts";
export * from "./rescore-evidence.ts";
export * from "./rubric/check-table.ts";
export {
  check,
  mergeParts,
  scoredFrom,
  scoreFromChecks,
  tiered,
  unmeasured,
  unmeasuredPart,
} from "./rubric/points.ts";
export * from "./rubric-version.ts";
export * from "./scan-targets.ts";
export * from "./score-observations.ts";
export * from "./security-headers.ts";
export * from "./seo.ts";
export * from "./sitemap.ts";
export * from "./sources/greenweb.ts";
export * from "./sources/host-match.ts";
export * from "./sources/openalex.ts";
export * from "./sources/wikidata.ts";
export * from "./spf.ts";
export * from "./tls-certificate.ts";
export * from "./tls-versions.ts";
export * from "./uptime.ts";
