import type { ScoreName } from "../../scores/catalogue.ts";
import type { CheckPoints } from "../../scores/check-points.ts";
import { check } from "./points.ts";

/** The references the rubrics follow (docs/scanner.md names each check's). */
export const REFERENCES = {
  "mdn-observatory": {
    title: "MDN HTTP Observatory 1.6.3: its analyzer tests, score table and grade chart",
    url: "https://github.com/mdn/mdn-http-observatory/tree/v1.6.3",
  },
  "ssl-labs": {
    title: "SSL Labs SSL Server Rating Guide (certificate caps: grades T and M)",
    url: "https://github.com/ssllabs/research/wiki/SSL-Server-Rating-Guide",
  },
  rfc8996: {
    title: "RFC 8996: Deprecating TLS 1.0 and TLS 1.1",
    url: "https://www.rfc-editor.org/rfc/rfc8996",
  },
  rfc6797: {
    title: "RFC 6797: HTTP Strict Transport Security",
    url: "https://www.rfc-editor.org/rfc/rfc6797",
  },
  rfc9113: {
    title: "RFC 9113: HTTP/2 (ALPN h2); RFC 7838 Alt-Svc and RFC 9114 HTTP/3 (h3)",
    url: "https://www.rfc-editor.org/rfc/rfc9113",
  },
  rfc9309: { title: "RFC 9309: Robots Exclusion Protocol", url: "https://www.rfc-editor.org/rfc/rfc9309" },
  sitemaps: {
    title: "Sitemaps XML format 0.9 (sitemaps.org)",
    url: "https://www.sitemaps.org/protocol.html",
  },
  rfc7208: {
    title: "RFC 7208: Sender Policy Framework (SPF)",
    url: "https://www.rfc-editor.org/rfc/rfc7208",
  },
  rfc7489: { title: "RFC 7489: DMARC", url: "https://www.rfc-editor.org/rfc/rfc7489" },
  rfc8461: {
    title: "RFC 8461: SMTP MTA Strict Transport Security",
    url: "https://www.rfc-editor.org/rfc/rfc8461",
  },
  rfc6840: {
    title: "RFC 6840 §5.7 and RFC 4035 §3.2.3: the AD bit of a validating resolver",
    url: "https://www.rfc-editor.org/rfc/rfc6840",
  },
  bcp47: {
    title: "BCP 47 language tags; hreflang alternates as search engines read them",
    url: "https://www.rfc-editor.org/rfc/rfc5646",
  },
  lighthouse: {
    title: "Lighthouse 13: performance metric weights and log-normal scoring curves; mobile-friendly audits",
    url: "https://developer.chrome.com/docs/lighthouse/performance/performance-scoring",
  },
  "web-vitals": {
    title: "web.dev Core Web Vitals thresholds (good / needs improvement / poor)",
    url: "https://web.dev/articles/vitals",
  },
  "axe-core": {
    title: "axe-core rules tagged WCAG 2.0–2.2 A and AA, weighed by impact",
    url: "https://github.com/dequelabs/axe-core/blob/develop/doc/rule-descriptions.md",
  },
  openalex: { title: "OpenAlex API: institutions and works", url: "https://docs.openalex.org" },
  wikidata: {
    title: "Wikidata API: items, official website (P856) and Wikipedia sitelinks",
    url: "https://www.wikidata.org/w/api.php",
  },
  greenweb: {
    title: "Green Web Foundation greencheck API v3",
    url: "https://api.thegreenwebfoundation.org/api-docs/",
  },
  unirank: { title: "unirank's own rubric (docs/scanner.md)", url: "docs/scanner.md" },
} as const;

export type ReferenceId = keyof typeof REFERENCES;

/**
 * One check of a rubric as data: what the methodology lists and what the rubric scores with. For the modifier
 * checks of the security headers, `max` is the best modifier.
 */
export interface CheckDefinition {
  readonly id: string;
  readonly score: ScoreName;
  readonly label: string;
  readonly max: number;
  /** What earns the points, in the words of docs/scanner.md. */
  readonly earns: string;
  readonly remediation: string;
  readonly reference: ReferenceId;
}

/** A check as the methodology lists it: `max` null when its points depend on the page (accessibility rules). */
export type CheckListing = Omit<CheckDefinition, "max"> & { readonly max: number | null };

type Row = Omit<CheckDefinition, "score" | "reference"> & { reference?: ReferenceId };

/** The checks of one sub-score, by key; `reference` is the rubric's unless a row names its own. */
export function checkTable<K extends string>(
  score: ScoreName,
  reference: ReferenceId,
  rows: Record<K, Row>,
): Readonly<Record<K, CheckDefinition>> {
  const out = {} as Record<K, CheckDefinition>;
  for (const key of Object.keys(rows) as K[]) {
    const row = rows[key];
    out[key] = { ...row, score, reference: row.reference ?? reference };
  }
  return out;
}

/** The check as scored: `points` of the definition's maximum, with what was seen. */
export function earned(def: CheckDefinition, points: number, detail: string): CheckPoints {
  return check(def.score, def.id, def.label, points, def.max, detail, def.remediation);
}
