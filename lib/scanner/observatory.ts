import { parseCsp, parseCspMeta, splitPolicies } from "./csp-parser.ts";

/**
 * The MDN HTTP Observatory's tests for the headers unirank scores, as its version 1.6.3 runs them (analyzer
 * tests, score table, grade chart), written for unirank's observations. The HSTS preload list is not consulted
 * (unirank has none), so the "preloaded" results never occur.
 */

/** One Observatory result and its modifier (its score table). */
export const OBSERVATORY_RESULTS = {
  "csp-implemented-with-no-unsafe-default-src-none": {
    modifier: 10,
    description: "CSP implemented with default-src 'none' and no unsafe sources",
  },
  "csp-implemented-with-no-unsafe": {
    modifier: 5,
    description: "CSP implemented without 'unsafe-inline' or 'unsafe-eval'",
  },
  "csp-implemented-with-unsafe-inline-in-style-src-only": {
    modifier: 0,
    description:
      "CSP implemented with unsafe sources ('unsafe-inline', data: or broad sources) in style-src only",
  },
  "csp-implemented-with-insecure-scheme-in-passive-content-only": {
    modifier: -10,
    description: "CSP implemented, but a secure site allows images or media over HTTP",
  },
  "csp-implemented-with-unsafe-eval": {
    modifier: -10,
    description: "CSP implemented, but allows 'unsafe-eval'",
  },
  "csp-implemented-with-unsafe-inline": {
    modifier: -20,
    description:
      "CSP implemented unsafely: 'unsafe-inline' or data: in script-src, broad sources in script-src or object-src, or either not restricted",
  },
  "csp-implemented-with-insecure-scheme": {
    modifier: -20,
    description: "CSP implemented, but a secure site allows resources over HTTP",
  },
  "csp-implemented-but-duplicate-directives": {
    modifier: 0,
    description: "CSP implemented, but with duplicate report-uri or report-to directives",
  },
  "csp-header-invalid": { modifier: -25, description: "CSP header cannot be parsed" },
  "csp-not-implemented": { modifier: -25, description: "CSP not implemented" },
  "csp-not-implemented-but-reporting-enabled": {
    modifier: -25,
    description: "CSP only in Content-Security-Policy-Report-Only (reporting, not enforced)",
  },
  "x-content-type-options-nosniff": { modifier: 0, description: "X-Content-Type-Options: nosniff" },
  "x-content-type-options-not-implemented": {
    modifier: -5,
    description: "X-Content-Type-Options not implemented",
  },
  "x-content-type-options-header-invalid": {
    modifier: -5,
    description: "X-Content-Type-Options cannot be recognised",
  },
  "x-frame-options-implemented-via-csp": {
    modifier: 5,
    description: "framing controlled by the CSP frame-ancestors directive",
  },
  "x-frame-options-sameorigin-or-deny": { modifier: 5, description: "X-Frame-Options: SAMEORIGIN or DENY" },
  "x-frame-options-allow-from-origin": { modifier: 0, description: "X-Frame-Options uses ALLOW-FROM" },
  "x-frame-options-not-implemented": { modifier: -20, description: "X-Frame-Options not implemented" },
  "x-frame-options-header-invalid": { modifier: -20, description: "X-Frame-Options cannot be recognised" },
  "referrer-policy-private": {
    modifier: 5,
    description: "Referrer-Policy no-referrer, same-origin, strict-origin or strict-origin-when-cross-origin",
  },
  "referrer-policy-not-implemented": { modifier: 0, description: "Referrer-Policy not implemented" },
  "referrer-policy-unsafe": {
    modifier: -5,
    description:
      "Referrer-Policy origin, origin-when-cross-origin, unsafe-url or no-referrer-when-downgrade (leaks URLs)",
  },
  "referrer-policy-header-invalid": { modifier: -5, description: "Referrer-Policy cannot be recognised" },
  "redirection-to-https": {
    modifier: 0,
    description: "initial redirection is to HTTPS on the same host, final destination is HTTPS",
  },
  "redirection-not-needed-no-http": { modifier: 0, description: "not reachable over plain HTTP" },
  "redirection-off-host-from-http": {
    modifier: -5,
    description: "initial redirection from HTTP to HTTPS goes to another host, preventing HSTS",
  },
  "redirection-not-to-https-on-initial-redirection": {
    modifier: -10,
    description: "redirects to HTTPS eventually, but the initial redirection is to another HTTP URL",
  },
  "redirection-not-to-https": {
    modifier: -20,
    description: "redirects, but the final destination is not HTTPS",
  },
  "redirection-missing": { modifier: -20, description: "does not redirect to HTTPS" },
  "redirection-invalid-cert": {
    modifier: -20,
    description: "invalid certificate chain encountered during redirection",
  },
  "hsts-implemented-max-age-at-least-six-months": {
    modifier: 0,
    description: "Strict-Transport-Security with max-age of six months (15552000) or more",
  },
  "hsts-implemented-max-age-less-than-six-months": {
    modifier: -10,
    description: "Strict-Transport-Security with max-age under six months",
  },
  "hsts-not-implemented": { modifier: -20, description: "Strict-Transport-Security not implemented" },
  "hsts-header-invalid": { modifier: -20, description: "Strict-Transport-Security cannot be recognised" },
  "hsts-not-implemented-no-https": { modifier: -20, description: "HSTS cannot be set: no HTTPS" },
  "hsts-invalid-cert": {
    modifier: -20,
    description: "HSTS cannot be set: the certificate chain is invalid",
  },
} as const;

export type ObservatoryExpectation = keyof typeof OBSERVATORY_RESULTS;

/** The Observatory's grade chart, best first: the grade of a score rounded down to a multiple of 5. */
export const GRADE_CHART: readonly [floor: number, grade: string][] = [
  [100, "A+"],
  [90, "A"],
  [85, "A-"],
  [80, "B+"],
  [70, "B"],
  [65, "B-"],
  [60, "C+"],
  [50, "C"],
  [45, "C-"],
  [40, "D+"],
  [30, "D"],
  [25, "D-"],
  [0, "F"],
];

/** Bonuses count only when the penalties leave at least this score. */
export const MINIMUM_SCORE_FOR_EXTRA_CREDIT = 90;

/** The grade of a score (negative scores count as 0, scores over 100 as 100), as the Observatory's grader gives it. */
export function gradeForScore(raw: number): { score: number; grade: string } {
  const score = Math.max(raw, 0);
  const key = Math.min(score - (score % 5), 100);
  const grade = GRADE_CHART.find(([floor]) => key >= floor)?.[1] ?? "F";
  return { score, grade };
}

/** What the Observatory reads of the page a scan landed on. */
export interface ObservatoryPage {
  /** The URL the page was read from: http: sources count as insecure when it is https. */
  url: string;
  /** Response headers, names in lower case, repeated headers joined with ", ". */
  headers: Readonly<Record<string, string>>;
  /** Contents of `<meta http-equiv="Content-Security-Policy">`, in document order. */
  metaCsp: readonly string[];
  /** Content of the last `<meta name="referrer">`. */
  metaReferrer: string | null;
}

interface Outcome {
  result: ObservatoryExpectation;
  pass: boolean;
}

export interface CspPolicy {
  antiClickjacking: boolean;
  defaultNone: boolean;
  insecureBaseUri: boolean;
  insecureFormAction: boolean;
  insecureSchemeActive: boolean;
  insecureSchemePassive: boolean;
  strictDynamic: boolean;
  unsafeEval: boolean;
  unsafeInline: boolean;
  unsafeInlineStyle: boolean;
  unsafeObjects: boolean;
}

export interface CspOutcome extends Outcome {
  numPolicies: number;
  /** A policy came in a header / in a `<meta http-equiv>`. */
  http: boolean;
  meta: boolean;
  policy: CspPolicy | null;
  /** The effective policy, sources sorted. */
  data: Record<string, string[]> | null;
}

const DANGEROUSLY_BROAD = new Set([
  "ftp:",
  "http:",
  "https:",
  "*",
  "http://*",
  "http://*.*",
  "https://*",
  "https://*.*",
]);
const BROAD_OR_INLINE = new Set([...DANGEROUSLY_BROAD, "'unsafe-inline'", "data:"]);
const PASSIVE_DIRECTIVES = ["img-src", "media-src"];
const NONCE_OR_HASH = ["'sha256-", "'sha384-", "'sha512-", "'nonce-"];

const hasNonceOrHash = (sources: Iterable<string>) =>
  [...sources].some((s) => NONCE_OR_HASH.some((prefix) => s.startsWith(prefix)));
const insecureScheme = (s: string) => s.startsWith("http:") || s.startsWith("ftp:");
const headerValues = (headers: Readonly<Record<string, string>>, name: string) =>
  headers[name] === undefined ? [] : [headers[name] as string];

/** The Observatory's Content Security Policy test. */
export function cspTest(page: ObservatoryPage): CspOutcome {
  const httpPolicies = splitPolicies(headerValues(page.headers, "content-security-policy"));
  const metaPolicies = splitPolicies(page.metaCsp);
  const out: CspOutcome = {
    result: "csp-not-implemented",
    pass: false,
    numPolicies: httpPolicies.length + metaPolicies.length,
    http: false,
    meta: false,
    policy: null,
    data: null,
  };
  let csp: Map<string, Set<string>>;
  let duplicates: Set<string>;
  try {
    ({ directives: csp, duplicates } = parseCsp([...httpPolicies, ...metaPolicies]));
  } catch {
    out.result = "csp-header-invalid";
    return out;
  }
  const attempt = (parse: () => Map<string, Set<string>>) => {
    try {
      return parse();
    } catch {
      return new Map<string, Set<string>>();
    }
  };
  const httpOnly = attempt(() => parseCsp(httpPolicies).directives);
  const metaOnly = attempt(() => parseCspMeta(metaPolicies).directives);
  if (httpOnly.size + metaOnly.size === 0) {
    // Report-Only counts only as a header (a meta element cannot carry it).
    if (page.headers["content-security-policy-report-only"])
      out.result = "csp-not-implemented-but-reporting-enabled";
    return out;
  }
  const policy: CspPolicy = {
    antiClickjacking: false,
    defaultNone: false,
    insecureBaseUri: false,
    insecureFormAction: false,
    insecureSchemeActive: false,
    insecureSchemePassive: false,
    strictDynamic: false,
    unsafeEval: false,
    unsafeInline: false,
    unsafeInlineStyle: false,
    unsafeObjects: false,
  };
  out.policy = policy;
  out.http = httpPolicies.length > 0;
  out.meta = metaPolicies.length > 0;
  let result: ObservatoryExpectation | null = null;
  const any = () => new Set(["*"]);
  const baseUri = csp.get("base-uri") ?? any();
  // frame-ancestors counts only from a header (a meta element cannot set it).
  const frameAncestors = httpOnly.get("frame-ancestors") ?? any();
  const formAction = csp.get("form-action") ?? any();
  // These may be the very sets of the effective policy: what is removed below is removed from it too.
  const objectSrc = csp.get("object-src") ?? csp.get("default-src") ?? any();
  const scriptSrc = csp.get("script-src") ?? csp.get("default-src") ?? any();
  const styleSrc = csp.get("style-src") ?? csp.get("default-src") ?? any();

  // A nonce or hash cancels 'unsafe-inline' (browsers ignore it then).
  for (const list of [scriptSrc, styleSrc])
    if (hasNonceOrHash(list) && list.has("'unsafe-inline'")) list.delete("'unsafe-inline'");
  // 'strict-dynamic' with a nonce or hash: browsers ignore scheme and host sources, 'self' and 'unsafe-inline'.
  if (hasNonceOrHash(scriptSrc) && scriptSrc.has("'strict-dynamic'")) {
    for (const s of [...scriptSrc])
      if ([...DANGEROUSLY_BROAD].some((b) => s.startsWith(b)) || s === "'self'" || s === "'unsafe-inline'")
        scriptSrc.delete(s);
    policy.strictDynamic = true;
  } else if (scriptSrc.has("'strict-dynamic'")) result ??= "csp-header-invalid";

  const active = [...csp.entries()]
    .filter(([d]) => !PASSIVE_DIRECTIVES.includes(d) && d !== "script-src")
    .flatMap(([, list]) => [...list]);
  active.push(...scriptSrc);
  const passive = PASSIVE_DIRECTIVES.flatMap((d) => [...(csp.get(d) ?? csp.get("default-src") ?? [])]);
  const secure = page.url.startsWith("https:");

  if (
    [...scriptSrc].some((s) => BROAD_OR_INLINE.has(s)) ||
    [...objectSrc].some((s) => DANGEROUSLY_BROAD.has(s))
  ) {
    result ??= "csp-implemented-with-unsafe-inline";
    policy.unsafeInline = true;
  }
  if (secure && active.some(insecureScheme)) {
    result ??= "csp-implemented-with-insecure-scheme";
    policy.insecureSchemeActive = true;
  }
  if (scriptSrc.has("'unsafe-eval'") || styleSrc.has("'unsafe-eval'")) {
    result ??= "csp-implemented-with-unsafe-eval";
    policy.unsafeEval = true;
  }
  if (secure && passive.some(insecureScheme)) {
    result ??= "csp-implemented-with-insecure-scheme-in-passive-content-only";
    policy.insecureSchemePassive = true;
  }
  if ([...styleSrc].some((s) => BROAD_OR_INLINE.has(s))) {
    result ??= "csp-implemented-with-unsafe-inline-in-style-src-only";
    policy.unsafeInlineStyle = true;
  }
  const defaultSrc = csp.get("default-src");
  if (defaultSrc?.has("'none'") && defaultSrc.size === 1) {
    result ??= "csp-implemented-with-no-unsafe-default-src-none";
    policy.defaultNone = true;
  } else result ??= "csp-implemented-with-no-unsafe";

  policy.antiClickjacking = ![...frameAncestors].some((s) => DANGEROUSLY_BROAD.has(s));
  policy.insecureBaseUri = [...baseUri].some((s) => BROAD_OR_INLINE.has(s));
  policy.insecureFormAction = [...formAction].some((s) => DANGEROUSLY_BROAD.has(s));
  policy.unsafeObjects = [...objectSrc].some((s) => DANGEROUSLY_BROAD.has(s));

  out.result = result;
  if (
    result === "csp-implemented-with-no-unsafe" ||
    result === "csp-implemented-with-no-unsafe-default-src-none" ||
    result === "csp-implemented-with-unsafe-inline-in-style-src-only" ||
    result === "csp-implemented-with-insecure-scheme-in-passive-content-only"
  ) {
    out.pass = true;
    if (duplicates.size > 0) out.result = "csp-implemented-but-duplicate-directives";
  }
  out.data = Object.fromEntries([...csp.entries()].map(([d, list]) => [d, [...list].sort()]));
  return out;
}

/** The Observatory's X-Content-Type-Options test. */
export function xContentTypeOptionsTest(page: ObservatoryPage): Outcome & { data: string | null } {
  const header = page.headers["x-content-type-options"];
  if (!header) return { result: "x-content-type-options-not-implemented", pass: false, data: null };
  const data = header.slice(0, 256);
  return data.trim().toLowerCase() === "nosniff"
    ? { result: "x-content-type-options-nosniff", pass: true, data }
    : { result: "x-content-type-options-header-invalid", pass: false, data };
}

/** The Observatory's X-Frame-Options test: CSP frame-ancestors counts instead; a meta element never does. */
export function xFrameOptionsTest(
  page: ObservatoryPage,
  csp: CspOutcome = cspTest(page),
): Outcome & { data: string | null } {
  const header = page.headers["x-frame-options"];
  let result: ObservatoryExpectation = "x-frame-options-not-implemented";
  let data: string | null = null;
  if (header) {
    data = header.slice(0, 1024);
    const xfo = data.trim().toLowerCase();
    if (xfo === "deny" || xfo === "sameorigin") result = "x-frame-options-sameorigin-or-deny";
    else if (xfo.startsWith("allow-from")) result = "x-frame-options-allow-from-origin";
    else result = "x-frame-options-header-invalid";
  }
  if (csp.data?.["frame-ancestors"]) result = "x-frame-options-implemented-via-csp";
  const pass =
    result === "x-frame-options-allow-from-origin" ||
    result === "x-frame-options-sameorigin-or-deny" ||
    result === "x-frame-options-implemented-via-csp";
  return { result, pass, data };
}

const REFERRER_PRIVATE = ["no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"];
const REFERRER_UNSAFE = ["origin", "origin-when-cross-origin", "unsafe-url", "no-referrer-when-downgrade"];
const REFERRER_VALID = new Set([...REFERRER_PRIVATE, ...REFERRER_UNSAFE]);

/** The Observatory's Referrer-Policy test: the last valid token of the header and `<meta name="referrer">` wins. */
export function referrerPolicyTest(
  page: ObservatoryPage,
): Outcome & { data: string | null; http: boolean; meta: boolean } {
  const http = headerValues(page.headers, "referrer-policy");
  const meta = page.metaReferrer === null ? [] : [page.metaReferrer];
  if (http.length === 0 && meta.length === 0)
    return { result: "referrer-policy-not-implemented", pass: true, data: null, http: false, meta: false };
  const data = [...http, ...meta].join(", ");
  const policy =
    data
      .split(",")
      .filter((t) => REFERRER_VALID.has(t.toLowerCase().trim()))
      .reverse()[0]
      ?.toLowerCase()
      .trim() ?? "";
  const result: ObservatoryExpectation = REFERRER_PRIVATE.includes(policy)
    ? "referrer-policy-private"
    : REFERRER_UNSAFE.includes(policy)
      ? "referrer-policy-unsafe"
      : "referrer-policy-header-invalid";
  return {
    result,
    pass: result === "referrer-policy-private",
    data,
    http: http.length > 0,
    meta: meta.length > 0,
  };
}

/** The plain-HTTP side of a scan, as the redirection test reads it. */
export interface HttpRoute {
  /** Plain HTTP answered at all. */
  reachable: boolean;
  /** Every URL from `http://…/` to where the redirects end. */
  route: readonly string[];
  /** The certificate of the final HTTPS response is one a browser accepts (true when the route ends on HTTP). */
  verified: boolean;
}

/** The Observatory's redirection test (no preload list: a preloaded route is judged like any other). */
export function redirectionTest(http: HttpRoute): Outcome {
  let result: ObservatoryExpectation;
  if (!http.reachable) result = "redirection-not-needed-no-http";
  else if (!http.verified) result = "redirection-invalid-cert";
  else {
    const route = http.route.map((u) => new URL(u));
    const [first, second] = route;
    if (route.length === 1) result = "redirection-missing";
    else if (route.at(-1)?.protocol !== "https:") result = "redirection-not-to-https";
    else if (second?.protocol === "http:") result = "redirection-not-to-https-on-initial-redirection";
    else if (
      first?.protocol === "http:" &&
      second?.protocol === "https:" &&
      first.hostname !== second.hostname
    )
      result = "redirection-off-host-from-http";
    else result = "redirection-to-https";
  }
  return { result, pass: result === "redirection-not-needed-no-http" || result === "redirection-to-https" };
}

/** The HTTPS response the HSTS test reads. */
export interface HttpsResponse {
  headers: Readonly<Record<string, string>>;
  /** Its certificate is one a browser accepts. */
  verified: boolean;
}

const SIX_MONTHS = 15_552_000;

/** The Observatory's Strict-Transport-Security test (no preload list). */
export function hstsTest(
  https: HttpsResponse | null,
): Outcome & { maxAge: number | null; includeSubDomains: boolean; preload: boolean } {
  const out = {
    result: "hsts-not-implemented" as ObservatoryExpectation,
    pass: false,
    maxAge: null as number | null,
    includeSubDomains: false,
    preload: false,
  };
  const header = https?.headers["strict-transport-security"];
  if (!https) out.result = "hsts-not-implemented-no-https";
  else if (!https.verified) out.result = "hsts-invalid-cert";
  else if (header !== undefined) {
    const data = header.slice(0, 1024);
    // A comma means the header was sent more than once.
    if (data.includes(",")) out.result = "hsts-header-invalid";
    else {
      for (const parameter of data.split(";").map((p) => p.trim().toLowerCase())) {
        if (parameter.startsWith("max-age=")) out.maxAge = Number.parseInt(parameter.slice(8, 128), 10);
        else if (parameter === "includesubdomains") out.includeSubDomains = true;
        else if (parameter === "preload") out.preload = true;
      }
      if (out.maxAge === null) out.result = "hsts-header-invalid";
      else
        out.result =
          out.maxAge < SIX_MONTHS
            ? "hsts-implemented-max-age-less-than-six-months"
            : "hsts-implemented-max-age-at-least-six-months";
    }
  }
  out.pass = out.result === "hsts-implemented-max-age-at-least-six-months";
  return out;
}
