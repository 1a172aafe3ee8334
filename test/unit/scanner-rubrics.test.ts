import { describe, expect, test } from "bun:test";
import { scoreDmarc, scoreDnssec, scoreEmailSecurity, scoreSpf } from "../../lib/scanner/email.ts";
import { fitEvidence } from "../../lib/scanner/evidence.ts";
import { parseHsts, scoreHsts } from "../../lib/scanner/hsts.ts";
import { scoreHttp2 } from "../../lib/scanner/http2.ts";
import { scoreHreflang, scoreI18n } from "../../lib/scanner/languages.ts";
import {
  isNotableLink,
  scoreOpenness,
  scoreOrcid,
  scoreRepository,
  scoreScholarProfiles,
  scoreSocial,
  scoreVideo,
} from "../../lib/scanner/links.ts";
import { scorePageWeight } from "../../lib/scanner/page-weight.ts";
import { REFERENCES } from "../../lib/scanner/rubric/check-table.ts";
import { completeScores, OWN_SITE_CHECKS, scoreObservations } from "../../lib/scanner/score-observations.ts";
import { scoreSecurityHeaders } from "../../lib/scanner/security-headers.ts";
import { scoreSeo } from "../../lib/scanner/seo.ts";
import { scoreSitemap, scoreWebSize } from "../../lib/scanner/sitemap.ts";
import { scoreTlsCertificate } from "../../lib/scanner/tls-certificate.ts";
import { scoreTlsVersions } from "../../lib/scanner/tls-versions.ts";
import { scoreUptime } from "../../lib/scanner/uptime.ts";
import { SUB_SCORE_NAMES } from "../../lib/scores/catalogue.ts";
import type { ScoredPart } from "../../lib/scores/check-points.ts";
import { goodObservations as good, goodPage } from "../support/scanner-observations.ts";

/** check id → points, for exact comparisons. */
const points = (part: ScoredPart) => Object.fromEntries(part.checks.map((c) => [c.id, c.points]));
const score = (part: ScoredPart) => Object.values(part.scores)[0];

describe("tech_ssl_score", () => {
  test("a well-kept certificate earns every point", () => {
    const p = scoreTlsCertificate(good());
    expect(points(p)).toEqual({
      "ssl.in-date": 30,
      "ssl.trusted-chain": 30,
      "ssl.name-match": 20,
      "ssl.key-strength": 10,
      "ssl.expiry-margin": 10,
      "ssl.browser-trust": 0,
    });
    expect(score(p)).toBe(100);
    expect(p.checks.every((c) => c.remediation === null)).toBe(true);
  });
  test("expired: no in-date or margin points, and browsers refuse it: capped at 20", () => {
    const o = good();
    o.tls = {
      ...o.tls,
      authorized: false,
      authorization_error: "CERT_HAS_EXPIRED",
      valid_to: "2026-05-20T00:00:00Z",
    };
    const p = scoreTlsCertificate(o);
    expect(points(p)).toEqual({
      "ssl.in-date": 0,
      "ssl.trusted-chain": 30,
      "ssl.name-match": 20,
      "ssl.key-strength": 10,
      "ssl.expiry-margin": 0,
      "ssl.browser-trust": -40,
    });
    expect(score(p)).toBe(20);
    expect(p.checks[0]?.remediation).toContain("Renew");
    expect(p.checks.at(-1)?.detail).toBe(
      "browsers refuse the certificate: expired; the sub-score is capped at 20",
    );
  });
  test("self-signed, wrong name, weak key, 20 days left", () => {
    const o = good();
    o.tls = {
      ...o.tls,
      authorized: false,
      authorization_error: "DEPTH_ZERO_SELF_SIGNED_CERT",
      name_matches: false,
      key_bits: 1024,
      valid_to: "2026-06-21T00:00:00Z",
    };
    expect(points(scoreTlsCertificate(o))).toEqual({
      "ssl.in-date": 30,
      "ssl.trusted-chain": 0,
      "ssl.name-match": 0,
      "ssl.key-strength": 0,
      "ssl.expiry-margin": 5,
      "ssl.browser-trust": -15,
    });
    expect(score(scoreTlsCertificate(o))).toBe(20);
  });
  test("each refusal browsers make caps the score at 20: untrusted, expired, not yet valid, wrong name", () => {
    const refused = [
      { authorized: false, authorization_error: "DEPTH_ZERO_SELF_SIGNED_CERT" },
      { authorized: false, authorization_error: "UNABLE_TO_GET_ISSUER_CERT_LOCALLY" },
      { authorized: false, authorization_error: "CERT_NOT_YET_VALID", valid_from: "2026-07-01T00:00:00Z" },
      { authorized: false, authorization_error: "ERR_TLS_CERT_ALTNAME_INVALID", name_matches: false },
    ];
    for (const r of refused) {
      const o = good();
      o.tls = { ...o.tls, ...r };
      expect(score(scoreTlsCertificate(o))).toBeLessThanOrEqual(20);
    }
    // A weak key alone is not a refusal: 90.
    const weak = good();
    weak.tls = { ...weak.tls, key_bits: 1024 };
    expect(score(scoreTlsCertificate(weak))).toBe(90);
  });
  test("EC keys of 256 bits are strong; no handshake scores 0", () => {
    const o = good();
    o.tls = { ...o.tls, key_type: "EC", key_bits: 256 };
    expect(points(scoreTlsCertificate(o))["ssl.key-strength"]).toBe(10);
    o.tls = { ...o.tls, connected: false, error: "ECONNREFUSED" };
    expect(score(scoreTlsCertificate(o))).toBe(0);
  });
});

describe("tech_tls_version_score", () => {
  test("1.3 and 1.2 offered, legacy refused: 100", () => {
    expect(points(scoreTlsVersions(good()))).toEqual({
      "tls.v13-offered": 50,
      "tls.v12-offered": 10,
      "tls.v11-refused": 20,
      "tls.v10-refused": 20,
    });
  });
  test("TLS 1.2 only: 50", () => {
    const p = scoreTlsVersions(
      good({ tls_versions: { tls13: false, tls12: true, tls11: false, tls10: false } }),
    );
    expect(score(p)).toBe(50);
  });
  test("everything accepted: 60; nothing accepted: 0", () => {
    expect(
      score(scoreTlsVersions(good({ tls_versions: { tls13: true, tls12: true, tls11: true, tls10: true } }))),
    ).toBe(60);
    expect(
      score(
        scoreTlsVersions(good({ tls_versions: { tls13: false, tls12: false, tls11: false, tls10: false } })),
      ),
    ).toBe(0);
  });
});

describe("tech_hsts_score", () => {
  test("parses RFC 6797 §6.1: max-age required once as digits, no directive twice, the first of several fields", () => {
    expect(parseHsts('max-age="31536000"; includeSubDomains')).toEqual({
      maxAge: 31536000,
      includeSubDomains: true,
      preload: false,
    });
    expect(parseHsts("MAX-AGE=10 ; PRELOAD")).toEqual({
      maxAge: 10,
      includeSubDomains: false,
      preload: true,
    });
    expect(parseHsts("includeSubDomains")).toBeNull();
    expect(parseHsts("max-age=1; max-age=2")).toBeNull();
    expect(parseHsts("max-age=31536000; includeSubDomains; includeSubDomains")).toBeNull();
    expect(parseHsts("max-age=abc")).toBeNull();
    expect(parseHsts("max-age=-1")).toBeNull();
    expect(parseHsts("max-age=31536000; foo=bar")).toEqual({
      maxAge: 31536000,
      includeSubDomains: false,
      preload: false,
    });
    expect(parseHsts("max-age=63072000, max-age=0")).toEqual({
      maxAge: 63072000,
      includeSubDomains: false,
      preload: false,
    });
  });
  test("six months are 15,552,000 s as the HTTP Observatory counts them", () => {
    const age = (n: number) =>
      points(
        scoreHsts(
          good({
            home: {
              url: "https://uni.test/",
              status: 200,
              headers: { "strict-transport-security": `max-age=${n}` },
            },
          }),
        ),
      )["hsts.six-months"];
    expect(age(15_552_000)).toBe(30);
    expect(age(15_551_999)).toBe(0);
  });
  test("over a certificate browsers refuse the header is ignored: nothing is earned (RFC 6797 §8.1)", () => {
    const o = good();
    o.home = { ...(o.home as NonNullable<typeof o.home>), verified: false };
    expect(score(scoreHsts(o))).toBe(0);
    expect(scoreHsts(o).checks[0]?.detail).toContain("ignored");
    const untrusted = good();
    untrusted.tls = {
      ...untrusted.tls,
      authorized: false,
      authorization_error: "DEPTH_ZERO_SELF_SIGNED_CERT",
    };
    expect(score(scoreHsts(untrusted))).toBe(0);
  });
  test("two years, subdomains, preload: 100", () => {
    expect(score(scoreHsts(good()))).toBe(100);
  });
  test("one day: only the header's 40", () => {
    const o = good();
    o.home = {
      url: "https://uni.test/",
      status: 200,
      headers: { "strict-transport-security": "max-age=86400" },
    };
    expect(points(scoreHsts(o))).toEqual({
      "hsts.present": 40,
      "hsts.six-months": 0,
      "hsts.one-year": 0,
      "hsts.include-subdomains": 0,
      "hsts.preload": 0,
    });
  });
  test("seven months: 70; absent or on plain HTTP: 0", () => {
    const o = good();
    o.home = {
      url: "https://uni.test/",
      status: 200,
      headers: { "strict-transport-security": "max-age=18000000" },
    };
    expect(score(scoreHsts(o))).toBe(70);
    o.home = { url: "https://uni.test/", status: 200, headers: {} };
    expect(score(scoreHsts(o))).toBe(0);
    o.home = {
      url: "http://uni.test/",
      status: 200,
      headers: { "strict-transport-security": "max-age=63072000" },
    };
    expect(score(scoreHsts(o))).toBe(0);
  });
});

describe("tech_security_headers_score (Observatory modifiers)", () => {
  const withHeaders = (headers: Record<string, string>) =>
    good({ home: { url: "https://uni.test/", status: 200, headers } });
  test("default-src 'none' with frame-ancestors, nosniff, strict referrer: 100 (bonuses capped), grade A+", () => {
    const p = scoreSecurityHeaders(good());
    expect(points(p)).toEqual({
      "headers.csp": 10,
      "headers.content-type-options": 0,
      "headers.frame-options": 5,
      "headers.referrer-policy": 5,
      "headers.redirection": 0,
    });
    expect(score(p)).toBe(100);
    expect(p.grades?.tech_security_headers_score).toMatchObject({
      scale: "mdn-observatory",
      score: 120,
      grade: "A+",
    });
  });
  test("no headers at all: 100 − 25 − 5 − 20 = 50; the grade counts the missing HSTS too (30, D)", () => {
    const p = scoreSecurityHeaders(withHeaders({}));
    expect(points(p)).toEqual({
      "headers.csp": -25,
      "headers.content-type-options": -5,
      "headers.frame-options": -20,
      "headers.referrer-policy": 0,
      "headers.redirection": 0,
    });
    expect(score(p)).toBe(50);
    expect(p.grades?.tech_security_headers_score).toMatchObject({ score: 30, grade: "D" });
    expect(p.grades?.tech_security_headers_score?.tests["strict-transport-security"]).toEqual({
      result: "hsts-not-implemented",
      modifier: -20,
    });
  });
  test("unsafe-inline in script-src is −20 and bonuses need 90 first", () => {
    const p = scoreSecurityHeaders(
      withHeaders({
        "content-security-policy":
          "default-src 'self'; script-src 'self' 'unsafe-inline'; frame-ancestors 'self'",
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
      }),
    );
    expect(points(p)["headers.csp"]).toBe(-20);
    // 100 − 20 = 80 < 90: the +5 of frame-ancestors and the +5 of the referrer policy are not added.
    expect(score(p)).toBe(80);
  });
  test("a nonce cancels 'unsafe-inline'; a policy in <meta http-equiv> counts", () => {
    const csp = (v: string) =>
      points(scoreSecurityHeaders(withHeaders({ "content-security-policy": v })))["headers.csp"];
    expect(csp("default-src 'self'; script-src 'nonce-r4nd' 'unsafe-inline'; object-src 'none'")).toBe(5);
    expect(csp("default-src 'self'; img-src http://cdn.test")).toBe(-10);
    expect(csp("default-src 'self'")).toBe(5);
    expect(csp("img-src 'self'")).toBe(-20);
    expect(csp("default-src 'none'; default-src 'none'")).toBe(-25);
    const meta = good({ home: { url: "https://uni.test/", status: 200, headers: {} } });
    meta.pages[0] = { ...(meta.pages[0] as (typeof meta.pages)[number]), meta_csp: ["default-src 'none'"] };
    expect(points(scoreSecurityHeaders(meta))["headers.csp"]).toBe(10);
  });
  test("X-Frame-Options DENY is +5, garbage −20; the last valid referrer token counts", () => {
    const p = points(
      scoreSecurityHeaders(
        withHeaders({ "x-frame-options": "DENY", "referrer-policy": "no-referrer, whimsy" }),
      ),
    );
    expect(p["headers.frame-options"]).toBe(5);
    expect(p["headers.referrer-policy"]).toBe(5);
    expect(
      points(scoreSecurityHeaders(withHeaders({ "x-frame-options": "maybe" })))["headers.frame-options"],
    ).toBe(-20);
  });
  test("redirection: missing −20, first hop to http −10, off host −5, untrusted end −20, no plain HTTP 0", () => {
    const redirect = (chain: string[], reachable = true, verified = true) =>
      points(
        scoreSecurityHeaders(
          good({
            http_redirect: { reachable, chain, final_url: chain.at(-1) ?? null, error: null, verified },
          }),
        ),
      )["headers.redirection"];
    expect(redirect(["http://uni.test/"])).toBe(-20);
    expect(redirect(["http://uni.test/", "http://www.uni.test/", "https://www.uni.test/"])).toBe(-10);
    expect(redirect(["http://uni.test/", "https://www.uni.test/"])).toBe(-5);
    expect(redirect(["http://uni.test/", "http://uni.test/x"])).toBe(-20);
    expect(redirect(["http://uni.test/", "https://uni.test/"], true, false)).toBe(-20);
    expect(redirect(["http://uni.test/"], false)).toBe(0);
  });
  test("no home page: 0", () => {
    expect(score(scoreSecurityHeaders(good({ home: null })))).toBe(0);
  });
});

describe("tech_http2_score", () => {
  test("h2 and h3: 100; h2 only 80; http/1.1 only 0", () => {
    expect(points(scoreHttp2(good()))).toEqual({ "http2.alpn-h2": 80, "http2.alt-svc-h3": 20 });
    const o = good();
    o.home = { url: "https://uni.test/", status: 200, headers: {} };
    expect(score(scoreHttp2(o))).toBe(80);
    o.tls = { ...o.tls, alpn: "http/1.1" };
    expect(score(scoreHttp2(o))).toBe(0);
  });
});

describe("tech_seo_score", () => {
  test("a complete home page: 100", () => {
    expect(points(scoreSeo(good()))).toEqual({
      "seo.status-200": 10,
      "seo.title": 20,
      "seo.description": 20,
      "seo.canonical": 15,
      "seo.h1": 15,
      "seo.indexable": 20,
    });
  });
  test("short title, long description, no canonical, two h1, noindex", () => {
    const page = goodPage({
      title: "Home",
      description: "x".repeat(200),
      canonical: null,
      h1_count: 2,
      robots_meta: "noindex, follow",
    });
    expect(points(scoreSeo(good({ pages: [page] })))).toEqual({
      "seo.status-200": 10,
      "seo.title": 10,
      "seo.description": 10,
      "seo.canonical": 0,
      "seo.h1": 5,
      "seo.indexable": 0,
    });
    expect(score(scoreSeo(good({ pages: [page] })))).toBe(35);
  });
  test("garbage page: nothing but the status", () => {
    const page = goodPage({ title: null, description: null, canonical: null, h1_count: 0 });
    expect(score(scoreSeo(good({ pages: [page] })))).toBe(30);
  });
});

describe("tech_sitemap_score and webo_size_score", () => {
  test("robots.txt with a sitemap that is valid: 100; 1,200 URLs is 60", () => {
    expect(score(scoreSitemap(good()))).toBe(100);
    expect(score(scoreWebSize(good()))).toBe(60);
  });
  test("robots.txt forbidding everything and no sitemap: 25", () => {
    const o = good({
      robots: { status: 200, found: true, allows_home: false, sitemaps: [] },
      sitemap: { url: "https://uni.test/sitemap.xml", found: false, valid: false, urls: 0 },
    });
    expect(points(scoreSitemap(o))).toEqual({
      "robots.present": 25,
      "robots.allows-home": 0,
      "robots.sitemap-declared": 0,
      "sitemap.found": 0,
      "sitemap.valid": 0,
    });
    expect(score(scoreWebSize(o))).toBe(0);
  });
  test("size tiers", () => {
    const size = (urls: number) =>
      score(scoreWebSize(good({ sitemap: { url: null, found: true, valid: true, urls } })));
    expect([1, 9, 10, 100, 9_999, 10_000, 50_000].map(size)).toEqual([10, 10, 20, 40, 60, 80, 100]);
  });
});

describe("i18n_hreflang_score and i18n_score", () => {
  test("lang everywhere, hreflang with x-default and self: 100; two languages: 50", () => {
    expect(score(scoreHreflang(good()))).toBe(100);
    expect(points(scoreI18n(good()))).toEqual({ "i18n.languages": 50 });
  });
  test("half the pages without lang, no hreflang", () => {
    const o = good({
      pages: [goodPage({ hreflang: [] }), goodPage({ url: "https://uni.test/a", lang: null })],
    });
    expect(points(scoreHreflang(o))).toEqual({
      "lang.home": 30,
      "lang.pages": 15,
      "hreflang.present": 0,
      "hreflang.x-default": 0,
      "hreflang.self": 0,
    });
    expect(score(scoreI18n(o))).toBe(20);
  });
  test("four languages: 100; none: 0", () => {
    const pages = ["en", "fr-CA", "de", "es"].map((lang, i) =>
      goodPage({ url: `https://uni.test/${i}`, lang, hreflang: [] }),
    );
    expect(score(scoreI18n(good({ pages })))).toBe(100);
    expect(score(scoreI18n(good({ pages: [goodPage({ lang: "?", hreflang: [] })] })))).toBe(0);
  });
});

describe("green_page_weight_score", () => {
  test("tiers by the home page's bytes; truncated earns 0", () => {
    const weight = (bytes: number, truncated = false) =>
      score(scorePageWeight(good({ pages: [goodPage({ bytes, truncated })] })));
    expect(
      [50_000, 102_400, 102_401, 600_000, 1_500_000, 3_000_000, 5_000_000].map((b) => weight(b)),
    ).toEqual([100, 100, 80, 60, 40, 20, 0]);
    expect(weight(5_242_880, true)).toBe(0);
  });
});

describe("links: social, video, ORCID, scholar profiles, repository, openness", () => {
  const withLinks = (links: string[]) => good({ pages: [goodPage({ links })] });
  test("social: 25 a network, at most 100", () => {
    const links = [
      "https://www.facebook.com/unitest",
      "https://twitter.com/unitest",
      "https://x.com/unitest",
      "https://www.instagram.com/unitest/",
      "https://www.linkedin.com/school/unitest/",
      "https://bsky.app/profile/uni.test",
      "https://facebook.com/",
    ];
    expect(score(scoreSocial(withLinks(links.slice(0, 3))))).toBe(50);
    expect(score(scoreSocial(withLinks(links)))).toBe(100);
    expect(score(scoreSocial(withLinks(["https://facebook.com/"])))).toBe(0);
  });
  test("video: a channel 100, single videos 50", () => {
    expect(score(scoreVideo(withLinks(["https://www.youtube.com/@unitest"])))).toBe(100);
    expect(score(scoreVideo(withLinks(["https://www.youtube.com/watch?v=abc", "https://youtu.be/x"])))).toBe(
      50,
    );
    expect(score(scoreVideo(withLinks(["https://vimeo.com/unitest"])))).toBe(100);
    expect(score(scoreVideo(withLinks([])))).toBe(0);
  });
  test("ORCID: distinct iDs by tiers", () => {
    const ids = [
      "0000-0002-1825-0097",
      "0000-0001-5109-3700",
      "0000-0002-1694-233X",
      "0000-0003-1415-9269",
      "0000-0001-2345-6789",
    ];
    const orcid = (n: number) =>
      score(scoreOrcid(withLinks(ids.slice(0, n).map((i) => `https://orcid.org/${i}`))));
    expect([0, 1, 2, 4, 5].map(orcid)).toEqual([0, 40, 70, 70, 100]);
    expect(
      score(
        scoreOrcid(
          withLinks([
            "https://orcid.org/",
            "https://orcid.org/0000-0002-1825-0097",
            "https://orcid.org/0000-0002-1825-0097/",
          ]),
        ),
      ),
    ).toBe(40);
  });
  test("scholar profiles", () => {
    const links = [
      "https://scholar.google.com/citations?user=abc",
      "https://www.researchgate.net/profile/Ada-Lovelace",
      "https://www.semanticscholar.org/author/123",
      "https://scholar.google.com/scholar?q=x",
    ];
    expect(score(scoreScholarProfiles(withLinks(links)))).toBe(70);
    expect(score(scoreScholarProfiles(withLinks(links.slice(3))))).toBe(0);
  });
  test("repository: linked 70, on the university's domain 30", () => {
    expect(points(scoreRepository(withLinks(["https://repository.uni.test/"])))).toEqual({
      "repository.linked": 70,
      "repository.own-domain": 30,
    });
    expect(score(scoreRepository(withLinks(["https://other.test/handle/123/4"])))).toBe(70);
    expect(score(scoreRepository(withLinks(["https://uni.test/about"])))).toBe(0);
  });
  test("openness: rich files on the domain, by tiers", () => {
    const files = (n: number, host = "uni.test") =>
      Array.from({ length: n }, (_, i) => `https://${host}/papers/${i}.pdf`);
    expect([0, 1, 5, 20, 50].map((n) => score(scoreOpenness(withLinks(files(n)))))).toEqual([
      0, 25, 50, 75, 100,
    ]);
    expect(score(scoreOpenness(withLinks(files(10, "elsewhere.test"))))).toBe(0);
  });
});

describe("email", () => {
  test("SPF: the default result of the policy, syntax errors and several records are permerrors", () => {
    const spf = (records: string[]) => points(scoreSpf(good({ dns: { ...good().dns, spf: records } })));
    expect(spf(["v=spf1 mx -all"])).toEqual({ "spf.single-record": 40, "spf.all": 60 });
    expect(spf(["v=spf1 mx ~all"])).toEqual({ "spf.single-record": 40, "spf.all": 40 });
    expect(spf(["v=spf1 mx ?all"])).toEqual({ "spf.single-record": 40, "spf.all": 10 });
    expect(spf(["v=spf1 +all"])).toEqual({ "spf.single-record": 40, "spf.all": 0 });
    expect(spf(["v=spf1 mx"])).toEqual({ "spf.single-record": 40, "spf.all": 10 });
    for (const broken of [
      "v=spf1 ip4:1.2.3.4 -all moo",
      "v=spf1 -all.",
      "v=spf1 -all/8",
      "v=spf1 ip4:1.2.3 -all",
    ])
      expect(spf([broken])).toEqual({ "spf.single-record": 0, "spf.all": 0 });
    expect(spf(["v=spf1 -all", "v=spf1 mx -all"])).toEqual({ "spf.single-record": 0, "spf.all": 0 });
    expect(spf([])).toEqual({ "spf.single-record": 0, "spf.all": 0 });
  });
  test("SPF: redirect= is followed, and the recorded answers count against the limits", () => {
    const answer = (name: string, type: string, records: string[], rcode = 0) => ({
      name,
      type,
      rcode,
      records,
    });
    const dns = (spf: string[], spf_dns: ReturnType<typeof answer>[]) =>
      scoreSpf(good({ dns: { ...good().dns, spf, spf_dns } }));
    const redirected = dns(
      ["v=spf1 redirect=_spf.uni.test"],
      [answer("_spf.uni.test", "TXT", ["v=spf1 mx ~all"])],
    );
    expect(points(redirected)).toEqual({ "spf.single-record": 40, "spf.all": 40 });
    const includes = Array.from({ length: 11 }, (_, i) => `include:i${i}.uni.test`).join(" ");
    const many = dns(
      [`v=spf1 ${includes} -all`],
      Array.from({ length: 11 }, (_, i) => answer(`i${i}.uni.test`, "TXT", ["v=spf1 ?all"])),
    );
    expect(points(many)).toEqual({ "spf.single-record": 0, "spf.all": 0 });
    expect(many.checks[0]?.detail).toContain("more than 10 DNS-querying terms");
    const voids = dns(
      ["v=spf1 a:x.uni.test a:y.uni.test a:z.uni.test -all"],
      ["x", "y", "z"].map((h) => answer(`${h}.uni.test`, "A", [], 3)),
    );
    expect(points(voids)["spf.single-record"]).toBe(0);
    expect(voids.checks[0]?.detail).toContain("more than 2 void lookups");
    const missing = dns(["v=spf1 include:gone.uni.test -all"], [answer("gone.uni.test", "TXT", [], 3)]);
    expect(missing.checks[0]?.detail).toContain("publishes no SPF record");
  });
  test("DMARC policies", () => {
    const dmarc = (records: string[]) => points(scoreDmarc(good({ dns: { ...good().dns, dmarc: records } })));
    expect(dmarc(["v=DMARC1; p=reject; rua=mailto:d@uni.test"])).toEqual({
      "dmarc.record": 30,
      "dmarc.policy": 50,
      "dmarc.pct": 10,
      "dmarc.reports": 10,
    });
    expect(dmarc(["v=DMARC1; p=quarantine; pct=50"])).toEqual({
      "dmarc.record": 30,
      "dmarc.policy": 35,
      "dmarc.pct": 0,
      "dmarc.reports": 0,
    });
    expect(dmarc(["v=DMARC1; p=none"])).toEqual({
      "dmarc.record": 30,
      "dmarc.policy": 5,
      "dmarc.pct": 10,
      "dmarc.reports": 0,
    });
    expect(score(scoreDmarc(good({ dns: { ...good().dns, dmarc: [] } })))).toBe(0);
    // Receivers reject these: nothing is earned, not even for "one record".
    for (const rejected of ["v=dmarc1; p=reject", "v=DMARC1; p=none; p=reject", "v=DMARC1; sp=reject"])
      expect(score(scoreDmarc(good({ dns: { ...good().dns, dmarc: [rejected] } })))).toBe(0);
    // rua but no p: p=none (RFC 7489 §6.6.3).
    expect(dmarc(["v=DMARC1; rua=mailto:d@uni.test"])).toEqual({
      "dmarc.record": 30,
      "dmarc.policy": 5,
      "dmarc.pct": 10,
      "dmarc.reports": 10,
    });
  });
  test("DNSSEC from the AD flag", () => {
    expect(score(scoreDnssec(good()))).toBe(100);
    expect(score(scoreDnssec(good({ dns: { ...good().dns, dnssec_ad: false } })))).toBe(0);
  });
  test("email security composite", () => {
    expect(points(scoreEmailSecurity(good(), 100, 100))).toEqual({
      "email.spf": 30,
      "email.dmarc": 40,
      "email.mx": 10,
      "email.mta-sts-record": 10,
      "email.mta-sts-policy": 10,
    });
    const o = good({ dns: { ...good().dns, mx: [], mta_sts: [], mta_sts_mode: "testing" } });
    // 30 × 0.7 = 21, 40 × 0.45 = 18, testing 5.
    expect(points(scoreEmailSecurity(o, 70, 45))).toEqual({
      "email.spf": 21,
      "email.dmarc": 18,
      "email.mx": 0,
      "email.mta-sts-record": 0,
      "email.mta-sts-policy": 5,
    });
    expect(score(scoreEmailSecurity(o, 70, 45))).toBe(44);
  });
});

describe("tech_uptime_score", () => {
  test("share of probes answered; null without probes", () => {
    expect(score(scoreUptime(good()))).toBe(99);
    expect(score(scoreUptime(good({ availability: { answered: 12, total: 10 } })))).toBe(100);
    const none = scoreUptime(good({ availability: null }));
    expect(none.scores.tech_uptime_score).toBeNull();
    expect(none.unmeasured.tech_uptime_score).toBe("no availability probes recorded");
  });
});

describe("evidence size", () => {
  test("notable links are the ones a rubric counts", () => {
    expect(isNotableLink("https://www.facebook.com/u", "uni.test")).toBe(true);
    expect(isNotableLink("https://orcid.org/0000-0002-1825-0097", "uni.test")).toBe(true);
    expect(isNotableLink("https://uni.test/a.pdf", "uni.test")).toBe(true);
    expect(isNotableLink("https://other.test/a.pdf", "uni.test")).toBe(false);
    expect(isNotableLink("https://uni.test/about", "uni.test")).toBe(false);
    expect(isNotableLink("not a url", "uni.test")).toBe(false);
  });
  test("fitEvidence cuts links, then pages, then the observations, and keeps the checks", () => {
    const links = Array.from({ length: 400 }, (_, i) => `https://uni.test/files/document-number-${i}.pdf`);
    const pages = Array.from({ length: 5 }, (_, i) => goodPage({ url: `https://uni.test/${i}`, links }));
    const big = { observations: good({ pages }), checks: scoreObservations(good()).checks, unmeasured: {} };
    const size = (e: unknown) => JSON.stringify(e).length;
    expect(size(big)).toBeGreaterThan(100_000);
    const cut = fitEvidence(big, 40_000);
    expect(cut.observations?.pages).toHaveLength(5);
    expect(cut.observations?.pages.every((p) => p.links.length === 50)).toBe(true);
    const home = fitEvidence(big, 20_000);
    expect(home.observations?.pages).toHaveLength(1);
    const none = fitEvidence(big, 10_000);
    expect(none.observations).toBeNull();
    expect(none.checks).toEqual(big.checks);
    expect(fitEvidence(big, 1_000_000)).toBe(big);
  });
});

describe("the check tables", () => {
  test("every check a rubric scores is defined once in the tables, with the same sub-score, label and maximum", () => {
    const ids = OWN_SITE_CHECKS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    const byId = new Map(OWN_SITE_CHECKS.map((c) => [c.id, c]));
    const scenarios = [
      good(),
      good({ home: null }),
      good({ availability: null }),
      good({ tls: { ...good().tls, authorized: false, authorization_error: "DEPTH_ZERO_SELF_SIGNED_CERT" } }),
    ];
    const seen = new Set<string>();
    for (const o of scenarios)
      for (const c of scoreObservations(o).checks) {
        const def = byId.get(c.id);
        expect(def && { id: def.id, score: def.score, label: def.label, max: def.max }).toEqual({
          id: c.id,
          score: c.score,
          label: c.label,
          max: c.max,
        });
        seen.add(c.id);
      }
    expect([...byId.keys()].filter((id) => !seen.has(id))).toEqual([]);
  });
  test("each names what earns its points, a remediation and a known reference", () => {
    for (const c of OWN_SITE_CHECKS) {
      expect(c.earns.length).toBeGreaterThan(5);
      expect(c.remediation.length).toBeGreaterThan(5);
      expect(Object.keys(REFERENCES)).toContain(c.reference);
    }
  });
});

describe("scoreObservations", () => {
  test("re-scores stored observations the same way, and after a JSON round trip", () => {
    const o = good();
    const first = scoreObservations(o);
    expect(scoreObservations(JSON.parse(JSON.stringify(o)))).toEqual(first);
    expect(first.scores.tech_ssl_score).toBe(100);
    expect(first.scores.email_security_score).toBe(100);
  });
  test("completeScores names every one of the 34 sub-scores, null ones with a reason", () => {
    const all = completeScores([scoreObservations(good())]);
    expect(Object.keys(all.scores).sort()).toEqual([...SUB_SCORE_NAMES].sort());
    for (const name of SUB_SCORE_NAMES)
      if (all.scores[name] === null) expect(typeof all.unmeasured[name]).toBe("string");
    expect(all.unmeasured.tech_speed_mobile_score).toBe("no browser configured");
    expect(all.unmeasured.research_publications_score).toBe("source openalex is off");
  });
  test("a part's score replaces the reason", () => {
    const all = completeScores([
      scoreObservations(good()),
      { scores: { tech_speed_mobile_score: 77 }, checks: [], unmeasured: {} },
    ]);
    expect(all.scores.tech_speed_mobile_score).toBe(77);
    expect(all.unmeasured.tech_speed_mobile_score).toBeUndefined();
  });
});
