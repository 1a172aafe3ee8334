import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { scoreObservations } from "../../lib/scanner/score-observations.ts";
import { type ScanOptions, scanUniversity } from "../../src/scanner/scan-university.ts";
import { type ScanWeb, scanSettings, startScanWeb } from "../support/scan-web.ts";
import { FIXTURE_UNIVERSITIES, WELL_KNOWN } from "../support/scan-web-sites.ts";

const SITES = [...FIXTURE_UNIVERSITIES, ...WELL_KNOWN];
let web: ScanWeb;
let options: ScanOptions;
/** The scanner's outcome: always with its evidence. */
type ScanOutcome = Awaited<ReturnType<typeof scanUniversity>>;
const outcomes = new Map<string, ScanOutcome>();

beforeAll(async () => {
  web = await startScanWeb(SITES);
  options = {
    ...scanSettings(web),
    contact: "https://ops.example/unirank",
  };
  // The troubled sites first, all at once; then the well-known-file sites (the 100,000-URL sitemaps among them),
  // so that their bulk does not eat into the others' 3-second budgets.
  for (const batch of [FIXTURE_UNIVERSITIES, WELL_KNOWN]) {
    const results = await Promise.all(batch.map((s) => scanUniversity({ domain: s.domain }, options)));
    for (const [i, s] of batch.entries()) outcomes.set(s.domain, results[i] as ScanOutcome);
  }
}, 90_000);
afterAll(() => web.close());

const scoresOf = (domain: string) => outcomes.get(domain)?.scores ?? {};

describe("scanUniversity over the fixture web", () => {
  test("the well-kept university earns the expected sub-scores, composites and overall", () => {
    const o = outcomes.get("well.test") as ScanOutcome;
    expect(o.status).toBe("completed");
    expect(o.scores).toMatchObject({
      tech_ssl_score: 100,
      tech_tls_version_score: 100,
      tech_hsts_score: 100,
      tech_security_headers_score: 100,
      tech_http2_score: 100,
      tech_seo_score: 100,
      tech_sitemap_score: 100,
      webo_size_score: 20, // 12 URLs in the sitemap
      i18n_hreflang_score: 100,
      i18n_score: 50, // en, fr
      green_page_weight_score: 100,
      presence_social_score: 100,
      presence_video_score: 100,
      research_orcid_score: 100,
      research_profiles_score: 70, // two profiles
      research_repository_score: 100,
      webo_openness_score: 50, // five PDFs
      email_spf_score: 100,
      email_dmarc_score: 100,
      email_dnssec_score: 100,
      email_security_score: 100,
      tech_uptime_score: null,
      tech_speed_mobile_score: null,
      research_publications_score: null,
      webo_composite_score: 35,
      tech_composite_score: 100,
      research_composite_score: 90,
      presence_composite_score: 87.5,
      overall_score: 76.1,
    });
    expect(o.evidence.unmeasured.tech_speed_mobile_score).toBe("no browser configured");
    expect(o.evidence.unmeasured.green_hosting_score).toBe("source greenweb is off");
    expect(o.evidence.observations?.pages.map((p) => p.url)).toEqual([
      "https://well.test/",
      "https://well.test/about",
      "https://well.test/fr/",
      "https://well.test/research",
    ]);
    expect(o.evidence.checks.find((c) => c.id === "ssl.trusted-chain")?.points).toBe(30);
  });

  test("the stored observations keep only countable links and re-score to the same sub-scores", () => {
    const o = outcomes.get("well.test") as ScanOutcome;
    const observations = JSON.parse(JSON.stringify(o.evidence.observations));
    const home = observations.pages[0];
    expect(home.links).toContain("https://www.youtube.com/@wellkept");
    expect(home.links).toContain("https://well.test/papers/report-1.pdf");
    expect(home.links).not.toContain("https://well.test/about");
    const again = scoreObservations(observations);
    for (const [name, value] of Object.entries(again.scores))
      expect([name, o.scores[name as keyof typeof o.scores] ?? null]).toEqual([name, value ?? null]);
  });

  test("a certificate browsers refuse leaves tech_ssl_score at 20 at most, and its HSTS earns nothing", () => {
    for (const domain of ["expired.test", "wrongname.test", "selfsigned.test"]) {
      expect([domain, scoresOf(domain).tech_ssl_score]).toEqual([domain, 20]);
      // The site sends a two-year HSTS header with preload; over this certificate a browser ignores it.
      expect([domain, scoresOf(domain).tech_hsts_score]).toEqual([domain, 0]);
      const o = outcomes.get(domain)?.evidence;
      expect(o?.observations?.home?.verified).toBe(false);
      expect(o?.checks.find((c) => c.id === "hsts.present")?.detail).toContain("ignored");
      expect(o?.grades?.tech_security_headers_score?.tests["strict-transport-security"]?.result).toBe(
        "hsts-invalid-cert",
      );
    }
    const expired = outcomes.get("expired.test")?.evidence.observations?.tls;
    expect(expired?.authorization_error).toBe("CERT_HAS_EXPIRED");
    expect(outcomes.get("well.test")?.evidence.observations?.home?.verified).toBe(true);
  });

  test("a TLS-1.2-only server loses the TLS 1.3 points", () => {
    expect(scoresOf("tls12.test").tech_tls_version_score).toBe(50);
    expect(outcomes.get("tls12.test")?.evidence.observations?.tls_versions).toEqual({
      tls13: false,
      tls12: true,
      tls11: false,
      tls10: false,
    });
  });

  test("no HSTS, no headers, no redirect", () => {
    expect(scoresOf("nohsts.test")).toMatchObject({
      tech_hsts_score: 0,
      tech_security_headers_score: 30, // 100 − 25 (CSP) − 5 (nosniff) − 20 (framing) − 20 (no redirect)
      tech_http2_score: 80,
    });
  });

  test("a site answering every path with its home page has no robots.txt, sitemap or MTA-STS policy", () => {
    const o = outcomes.get("everypath.test") as ScanOutcome;
    expect(o.status).toBe("completed");
    expect(o.evidence.observations?.robots).toMatchObject({
      status: 200,
      found: false,
      allows_home: true,
      sitemaps: [],
    });
    expect(o.evidence.observations?.sitemap).toMatchObject({ found: false, valid: false, urls: 0 });
    expect(o.evidence.observations?.dns.mta_sts_mode).toBeNull();
    // Only "robots.txt allows the home page" (no robots.txt allows everything): 25 of 100.
    expect(o.scores.tech_sitemap_score).toBe(25);
    expect(o.scores.webo_size_score).toBe(0);
    expect(o.evidence.checks.find((c) => c.id === "robots.present")?.detail).toContain("text/html");
  });

  test("a sitemap index counts its children's URLs, never itself or a child twice", () => {
    const o = outcomes.get("bigmap.test") as ScanOutcome;
    expect(o.evidence.observations?.sitemap).toMatchObject({
      found: true,
      valid: true,
      index: true,
      children: 2,
      urls: 100_000,
    });
    expect(o.scores.webo_size_score).toBe(100);
    const sitemapFetches = web.requests.filter((r) => r.startsWith("bigmap.test /sitemap.xml ")).length;
    expect(sitemapFetches).toBe(1);
    expect(web.requests.filter((r) => r.startsWith("bigmap.test /a.xml ")).length).toBe(1);
  });

  test("DNS: EDNS0 keeps a 900-byte TXT set in one UDP answer; a larger one is read whole over TCP", () => {
    const big = outcomes.get("bigtxt.test")?.evidence.observations?.dns;
    expect(web.dnsQueries).toContain("tcp TXT bigtxt.test");
    expect(web.dnsQueries.filter((q) => q.endsWith(" TXT mediumtxt.test"))).toEqual([
      "udp TXT mediumtxt.test",
    ]);
    expect(big?.spf).toEqual([
      "v=spf1 include:_a.spf.bigtxt.test include:_b.spf.bigtxt.test include:_c.spf.bigtxt.test ip4:192.0.2.1 ip4:192.0.2.2 ip4:192.0.2.3 ip4:192.0.2.4 ip4:192.0.2.5 ip4:192.0.2.6 ip4:192.0.2.7 ip4:192.0.2.8 ip4:192.0.2.9 ip4:192.0.2.10 ip4:192.0.2.11 ip4:192.0.2.12 -all",
    ]);
    // The includes were followed and recorded; the whole policy evaluates to fail for unnamed senders.
    expect(big?.spf_dns?.map((a) => `${a.type} ${a.name}`).sort()).toEqual([
      "A mail.bigtxt.test",
      "TXT _a.spf.bigtxt.test",
      "TXT _b.spf.bigtxt.test",
      "TXT _c.spf.bigtxt.test",
      "TXT bigtxt.test",
    ]);
    expect(scoresOf("bigtxt.test").email_spf_score).toBe(100);
    expect(
      outcomes.get("bigtxt.test")?.evidence.checks.find((c) => c.id === "spf.single-record")?.detail,
    ).toContain("4 DNS-querying term(s), 1 void lookup(s)");
    expect(scoresOf("mediumtxt.test").email_spf_score).toBe(100);
  });

  test("a redirect loop and a tarpit fail with their reasons", () => {
    const loop = outcomes.get("loop.test") as ScanOutcome;
    expect(loop.status).toBe("failed");
    expect(loop.failure_reason).toBe("home page: more than 5 redirects from https://loop.test/ (last to /b)");
    expect(loop.scores).toEqual({});
    const tarpit = outcomes.get("tarpit.test") as ScanOutcome;
    expect(tarpit.status).toBe("failed");
    expect(tarpit.failure_reason).toBe("home page: https://tarpit.test/ did not answer within 3 s");
    expect(tarpit.evidence.failure_reason).toBe(tarpit.failure_reason as string);
  });

  test("a 20 MB page is cut at the byte cap and weighs 0", () => {
    const huge = outcomes.get("huge.test") as ScanOutcome;
    expect(huge.status).toBe("completed");
    expect(huge.evidence.observations?.pages[0]).toMatchObject({ bytes: 5 * 1024 * 1024, truncated: true });
    expect(huge.scores.green_page_weight_score).toBe(0);
  });

  test("garbage HTML completes", () => {
    const g = outcomes.get("garbage.test") as ScanOutcome;
    expect(g.status).toBe("completed");
    expect(g.evidence.observations?.pages).toHaveLength(1);
  });

  test("robots.txt is obeyed: nothing disallowed is fetched", () => {
    expect(web.requests.some((r) => r.startsWith("well.test /private/"))).toBe(false);
    expect(web.requests.some((r) => r.startsWith("closed.test /a "))).toBe(false);
    expect(outcomes.get("closed.test")?.evidence.observations?.pages).toHaveLength(1);
    expect(scoresOf("closed.test").tech_sitemap_score).toBe(25);
  });

  test("every request names unirank and the contact", () => {
    const agents = new Set(web.requests.map((r) => r.split(" ").slice(2).join(" ")));
    expect([...agents]).toEqual([
      expect.stringMatching(/^unirank\/\S+ \(\+https:\/\/ops\.example\/unirank\)$/),
    ]);
  });

  test("private addresses are refused without --allow-private-targets", async () => {
    const o = await scanUniversity({ domain: "well.test" }, { ...options, allowPrivateTargets: false });
    expect(o.status).toBe("failed");
    expect(o.failure_reason).toBe(
      "refused: well.test resolves to 127.0.0.2, a loopback, private or reserved address (allow with --allow-private-targets)",
    );
  });

  test("an unknown domain fails with the DNS reason", async () => {
    const o = await scanUniversity({ domain: "nowhere.test" }, options);
    expect(o.failure_reason).toBe("DNS: nowhere.test has no A record");
  });

  test("the per-scan timeout stops a scan", async () => {
    const o = await scanUniversity(
      { domain: "tarpit.test" },
      { ...options, requestTimeoutMs: 10_000, scanTimeoutMs: 300 },
    );
    expect(o.failure_reason).toBe("the scan took longer than 0.3 s");
  });

  test("parts fill their sub-scores; a failing part is recorded and its scores stay null", async () => {
    const o = await scanUniversity(
      { domain: "closed.test" },
      {
        ...options,
        parts: [
          async (target, ctx) => ({
            scores: {
              tech_speed_mobile_score: ctx.observations?.home?.url === `https://${target.domain}/` ? 42 : 0,
            },
            checks: [],
            unmeasured: {},
          }),
          async () => {
            throw new Error("source openalex is unreachable");
          },
        ],
      },
    );
    expect(o.scores.tech_speed_mobile_score).toBe(42);
    expect(o.scores.research_publications_score).toBeNull();
    expect(o.evidence.checks.find((c) => c.id === "part.error")?.detail).toBe(
      "source openalex is unreachable",
    );
  });
});
