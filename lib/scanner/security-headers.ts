import type { CheckPoints, RubricGrade, ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import {
  cspTest,
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
import { checkTable, earned } from "./rubric/check-table.ts";

const S = "tech_security_headers_score" as const;

export const SECURITY_HEADER_CHECKS = checkTable(S, "mdn-observatory", {
  csp: {
    id: "headers.csp",
    label: "Content-Security-Policy",
    max: 10,
    earns:
      "the Observatory's CSP modifier: default-src 'none' and nothing unsafe +10; no unsafe source +5; unsafe sources in style-src only, or duplicate report directives 0; insecure passive content (img-src/media-src http:) or 'unsafe-eval' −10; 'unsafe-inline'/data:/broad sources in script-src or object-src, either unrestricted, or http: active content −20; missing, report-only or unparseable −25",
    remediation:
      "Send a Content-Security-Policy with default-src 'none' (or restricted sources), object-src restricted and no 'unsafe-inline' or 'unsafe-eval' in script-src (a nonce or hash cancels 'unsafe-inline').",
  },
  contentTypeOptions: {
    id: "headers.content-type-options",
    label: "X-Content-Type-Options",
    max: 0,
    earns: "nosniff 0; missing or anything else −5",
    remediation: "Send X-Content-Type-Options: nosniff.",
  },
  frameOptions: {
    id: "headers.frame-options",
    label: "Framing (frame-ancestors / X-Frame-Options)",
    max: 5,
    earns:
      "CSP frame-ancestors (in a header) +5; X-Frame-Options DENY or SAMEORIGIN +5; ALLOW-FROM 0; missing or invalid (a repeated header too) −20",
    remediation: "Send frame-ancestors in the Content-Security-Policy header (or X-Frame-Options: DENY).",
  },
  referrerPolicy: {
    id: "headers.referrer-policy",
    label: "Referrer-Policy",
    max: 5,
    earns:
      'the last valid token of the header and <meta name="referrer">: no-referrer, same-origin, strict-origin, strict-origin-when-cross-origin +5; missing 0; origin, origin-when-cross-origin, unsafe-url, no-referrer-when-downgrade or no valid token −5',
    remediation: "Send Referrer-Policy: strict-origin-when-cross-origin (or stricter).",
  },
  redirection: {
    id: "headers.redirection",
    label: "HTTP to HTTPS redirection",
    max: 0,
    earns:
      "first redirect to HTTPS on the same host and ending on HTTPS, or no plain HTTP at all: 0; first redirect to another host −5; first redirect to plain HTTP −10; no redirect, ending on plain HTTP, or ending on a certificate browsers refuse −20",
    remediation:
      "Redirect every plain-HTTP request to the same host over HTTPS, with a certificate browsers accept.",
  },
  home: {
    id: "headers.home",
    label: "Home page answered",
    max: 100,
    earns: "the home page answered (without it the sub-score is 0)",
    remediation: "Serve the home page.",
    reference: "unirank",
  },
});

/** What the Observatory reads of a scan's home page. */
export function observatoryPage(o: Observations): ObservatoryPage {
  const page = o.pages[0];
  return {
    url: o.home?.url ?? `https://${o.domain}/`,
    headers: o.home?.headers ?? {},
    metaCsp: page?.meta_csp ?? [],
    metaReferrer: page?.meta_referrer ?? null,
  };
}

/** The plain-HTTP route of a scan, for the redirection test. */
export function httpRoute(o: Observations): HttpRoute {
  const r = o.http_redirect;
  const route = [...r.chain];
  if (r.final_url && route.at(-1) !== r.final_url) route.push(r.final_url);
  const endsSecure = (route.at(-1) ?? "").startsWith("https:");
  return { reachable: r.reachable, route, verified: endsSecure ? (r.verified ?? o.tls.authorized) : true };
}

/** The HTTPS home page, for the HSTS test; null when the home page was not served over HTTPS. */
export function httpsResponse(o: Observations): HttpsResponse | null {
  const home = o.home;
  if (!home?.url.startsWith("https:")) return null;
  return { headers: home.headers, verified: home.verified ?? o.tls.authorized };
}

const modifier = (result: ObservatoryExpectation) => OBSERVATORY_RESULTS[result].modifier;
const said = (result: ObservatoryExpectation, data?: string | null) =>
  `${OBSERVATORY_RESULTS[result].description}${data ? ` (${data.length > 200 ? `${data.slice(0, 200)}…` : data})` : ""}`;

/**
 * tech_security_headers_score as the MDN HTTP Observatory scores a site, over its tests of CSP,
 * X-Content-Type-Options, X-Frame-Options, Referrer-Policy and redirection: 100 plus their modifiers, the bonuses
 * only when the penalties leave 90 or more, clamped to 0–100. HSTS has its own sub-score; the Observatory's grade
 * (with its HSTS test) goes into `grades`.
 */
export function scoreSecurityHeaders(o: Observations): ScoredPart {
  const C = SECURITY_HEADER_CHECKS;
  if (!o.home)
    return {
      scores: { [S]: 0 },
      checks: [earned(C.home, 0, "the home page did not answer")],
      unmeasured: {},
    };
  const page = observatoryPage(o);
  const csp = cspTest(page);
  const xcto = xContentTypeOptionsTest(page);
  const xfo = xFrameOptionsTest(page, csp);
  const referrer = referrerPolicyTest(page);
  const redirection = redirectionTest(httpRoute(o));
  const hsts = hstsTest(httpsResponse(o));
  const cspData = page.headers["content-security-policy"] ?? page.metaCsp.join(", ");
  const checks: CheckPoints[] = [
    earned(C.csp, modifier(csp.result), said(csp.result, cspData)),
    earned(C.contentTypeOptions, modifier(xcto.result), said(xcto.result, xcto.data)),
    earned(C.frameOptions, modifier(xfo.result), said(xfo.result, xfo.data)),
    earned(C.referrerPolicy, modifier(referrer.result), said(referrer.result, referrer.data)),
    earned(
      C.redirection,
      modifier(redirection.result),
      said(redirection.result, httpRoute(o).route.join(" → ")),
    ),
  ];
  const total = observatoryScore(checks.map((c) => c.points));
  const tests: RubricGrade["tests"] = {};
  const results: [string, ObservatoryExpectation][] = [
    ["content-security-policy", csp.result],
    ["x-content-type-options", xcto.result],
    ["x-frame-options", xfo.result],
    ["referrer-policy", referrer.result],
    ["redirection", redirection.result],
    ["strict-transport-security", hsts.result],
  ];
  for (const [name, result] of results) tests[name] = { result, modifier: modifier(result) };
  const grade = gradeForScore(observatoryScore(Object.values(tests).map((t) => t.modifier)));
  return {
    scores: { [S]: Math.max(0, Math.min(100, total)) },
    checks,
    unmeasured: {},
    grades: { [S]: { scale: "mdn-observatory", score: grade.score, grade: grade.grade, tests } },
  };
}

/** 100 plus the modifiers; the bonuses count only when the penalties leave at least 90 (the Observatory's curve). */
export function observatoryScore(modifiers: readonly number[]): number {
  const penalties = modifiers.reduce((n, m) => n + Math.min(0, m), 0);
  const bonuses = modifiers.reduce((n, m) => n + Math.max(0, m), 0);
  const base = 100 + penalties;
  return base >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? base + bonuses : base;
}
