import { SCORE_NAMES, type ScoreName, type SubScoreName } from "../scores/catalogue.ts";
import type { ScoredPart } from "../scores/check-points.ts";
import {
  DMARC_CHECKS,
  DNSSEC_CHECKS,
  EMAIL_CHECKS,
  SPF_CHECKS,
  scoreDmarc,
  scoreDnssec,
  scoreEmailSecurity,
  scoreSpf,
} from "./email.ts";
import { HSTS_CHECKS, scoreHsts } from "./hsts.ts";
import { HTTP2_CHECKS, scoreHttp2 } from "./http2.ts";
import { HREFLANG_CHECKS, I18N_CHECKS, scoreHreflang, scoreI18n } from "./languages.ts";
import {
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
import type { Observations } from "./observations.ts";
import { PAGE_WEIGHT_CHECKS, scorePageWeight } from "./page-weight.ts";
import type { CheckDefinition } from "./rubric/check-table.ts";
import { mergeParts } from "./rubric/points.ts";
import { SECURITY_HEADER_CHECKS, scoreSecurityHeaders } from "./security-headers.ts";
import { SEO_CHECKS, scoreSeo } from "./seo.ts";
import { SITEMAP_CHECKS, scoreSitemap, scoreWebSize, WEB_SIZE_CHECKS } from "./sitemap.ts";
import { scoreTlsCertificate, TLS_CERTIFICATE_CHECKS } from "./tls-certificate.ts";
import { scoreTlsVersions, TLS_VERSION_CHECKS } from "./tls-versions.ts";
import { scoreUptime, UPTIME_CHECKS } from "./uptime.ts";

/** Every check of the own-site rubrics, as data (id, sub-score, label, maximum, what earns it, its reference). */
export const OWN_SITE_CHECKS: readonly CheckDefinition[] = [
  TLS_CERTIFICATE_CHECKS,
  TLS_VERSION_CHECKS,
  HSTS_CHECKS,
  SECURITY_HEADER_CHECKS,
  HTTP2_CHECKS,
  SEO_CHECKS,
  SITEMAP_CHECKS,
  WEB_SIZE_CHECKS,
  HREFLANG_CHECKS,
  I18N_CHECKS,
  PAGE_WEIGHT_CHECKS,
  SOCIAL_CHECKS,
  VIDEO_CHECKS,
  ORCID_CHECKS,
  PROFILE_CHECKS,
  REPOSITORY_CHECKS,
  OPENNESS_CHECKS,
  SPF_CHECKS,
  DMARC_CHECKS,
  DNSSEC_CHECKS,
  EMAIL_CHECKS,
  UPTIME_CHECKS,
].flatMap((table) => Object.values(table));

/**
 * Sub-scores measured elsewhere (a browser, a third-party source) or by nobody yet, and the reason recorded
 * when no part measured them.
 */
export const MEASURED_ELSEWHERE: Readonly<Partial<Record<SubScoreName, string>>> = {
  tech_speed_desktop_score: "no browser configured",
  tech_speed_mobile_score: "no browser configured",
  tech_core_web_vitals_score: "no browser configured",
  tech_mobile_friendly_score: "no browser configured",
  tech_accessibility_score: "no browser configured",
  research_publications_score: "source openalex is off",
  research_citations_score: "source openalex is off",
  webo_excellence_score: "source openalex is off",
  presence_wikipedia_score: "source wikidata is off",
  green_hosting_score: "source greenweb is off",
  webo_visibility_score: "not measured: needs an index of links from other sites",
  presence_news_score: "not measured: needs a news index",
};

const num = (part: ScoredPart, name: ScoreName): number => part.scores[name] ?? 0;

/** Every sub-score measured from the university's own site and DNS, from stored observations (pure). */
export function scoreObservations(o: Observations): ScoredPart {
  const spf = scoreSpf(o);
  const dmarc = scoreDmarc(o);
  return mergeParts([
    scoreTlsCertificate(o),
    scoreTlsVersions(o),
    scoreHsts(o),
    scoreSecurityHeaders(o),
    scoreHttp2(o),
    scoreSeo(o),
    scoreSitemap(o),
    scoreWebSize(o),
    scoreHreflang(o),
    scoreI18n(o),
    scorePageWeight(o),
    scoreSocial(o),
    scoreVideo(o),
    scoreOrcid(o),
    scoreScholarProfiles(o),
    scoreRepository(o),
    scoreOpenness(o),
    spf,
    dmarc,
    scoreDnssec(o),
    scoreEmailSecurity(o, num(spf, "email_spf_score"), num(dmarc, "email_dmarc_score")),
    scoreUptime(o),
  ]);
}

/**
 * The parts' results over the own-site ones, with every sub-score no part measured left null and why (the
 * reasons in catalogue order, so a re-score of the same evidence gives the same object).
 */
export function completeScores(parts: ScoredPart[]): ScoredPart {
  const merged = mergeParts(parts);
  for (const [name, reason] of Object.entries(MEASURED_ELSEWHERE) as [SubScoreName, string][]) {
    if (typeof merged.scores[name] === "number") continue;
    merged.scores[name] = null;
    merged.unmeasured[name] ??= reason;
  }
  const unmeasured: ScoredPart["unmeasured"] = {};
  for (const name of SCORE_NAMES) {
    const reason = merged.unmeasured[name];
    if (reason !== undefined) unmeasured[name] = reason;
  }
  return { ...merged, unmeasured };
}
