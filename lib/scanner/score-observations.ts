import type { ScoreName, SubScoreName } from "../scores/catalogue.ts";
import type { ScoredPart } from "../scores/check-points.ts";
import { scoreDmarc, scoreDnssec, scoreEmailSecurity, scoreSpf } from "./email.ts";
import { scoreHsts } from "./hsts.ts";
import { scoreHttp2 } from "./http2.ts";
import { scoreHreflang, scoreI18n } from "./languages.ts";
import {
  scoreOpenness,
  scoreOrcid,
  scoreRepository,
  scoreScholarProfiles,
  scoreSocial,
  scoreVideo,
} from "./links.ts";
import type { Observations } from "./observations.ts";
import { scorePageWeight } from "./page-weight.ts";
import { mergeParts } from "./points.ts";
import { scoreSecurityHeaders } from "./security-headers.ts";
import { scoreSeo } from "./seo.ts";
import { scoreSitemap, scoreWebSize } from "./sitemap.ts";
import { scoreTlsCertificate } from "./tls-certificate.ts";
import { scoreTlsVersions } from "./tls-versions.ts";
import { scoreUptime } from "./uptime.ts";

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

/** The parts' results over the own-site ones, with every sub-score no part measured left null and why. */
export function completeScores(parts: ScoredPart[]): ScoredPart {
  const merged = mergeParts(parts);
  for (const [name, reason] of Object.entries(MEASURED_ELSEWHERE) as [SubScoreName, string][]) {
    if (typeof merged.scores[name] === "number") continue;
    merged.scores[name] = null;
    merged.unmeasured[name] ??= reason;
  }
  return merged;
}
