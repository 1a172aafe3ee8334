import { type FixtureSite, page, redirect, routes } from "./scan-web.ts";

/** The fixture universities of the scanner tests: one well-kept site and one of each kind of trouble. */

const ORCIDS = [
  "0000-0002-1825-0097",
  "0000-0001-5109-3700",
  "0000-0002-1694-233X",
  "0000-0003-1415-9269",
  "0000-0001-2345-6789",
];

const FULL_HEADERS = {
  "strict-transport-security": "max-age=63072000; includeSubDomains; preload",
  "content-security-policy": "default-src 'none'; img-src 'self'; style-src 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "permissions-policy": "camera=(), microphone=()",
  "alt-svc": 'h3=":443"; ma=86400',
};

const head = (title: string, extra = "") =>
  `<head><meta charset="utf-8"><title>${title}</title>${extra}</head>`;

const wellHome = `<!doctype html><html lang="en">${head(
  "University of Wellkept: home",
  `<meta name="description" content="The University of Wellkept teaches, researches and publishes its work openly for everyone.">
<link rel="canonical" href="https://well.test/">
<link rel="alternate" hreflang="en" href="https://well.test/">
<link rel="alternate" hreflang="fr" href="https://well.test/fr/">
<link rel="alternate" hreflang="x-default" href="https://well.test/">`,
)}<body><h1>University of Wellkept</h1>
<a href="/about">About</a> <a href="/fr/">Français</a> <a href="/research">Research</a> <a href="/private/staff">Staff</a>
${[1, 2, 3, 4, 5].map((i) => `<a href="/papers/report-${i}.pdf">Report ${i}</a>`).join(" ")}
<a href="https://www.facebook.com/wellkept">Facebook</a> <a href="https://twitter.com/wellkept">X</a>
<a href="https://www.instagram.com/wellkept/">Instagram</a> <a href="https://www.linkedin.com/school/wellkept/">LinkedIn</a>
<a href="https://www.youtube.com/@wellkept">YouTube</a> <a href="https://repository.well.test/">Repository</a>
</body></html>`;

const wellPage = (lang: string, title: string, body: string) =>
  `<!doctype html><html lang="${lang}">${head(title)}<body><h1>${title}</h1><a href="/">Home</a>${body}</body></html>`;

const sitemap = (n: number) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from(
    { length: n },
    (_, i) => `<url><loc>https://well.test/page-${i}</loc></url>`,
  ).join("")}</urlset>`;

const plain = (title: string) =>
  `<html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;

export const WELL_KEPT: FixtureSite = {
  domain: "well.test",
  dns: {
    spf: ["v=spf1 mx -all"],
    dmarc: ["v=DMARC1; p=reject; rua=mailto:dmarc@well.test"],
    mx: ["mx.well.test"],
    mtaSts: ["v=STSv1; id=20260101"],
    dnssec: true,
  },
  https: routes({
    "/": (_, res) => page(res, wellHome, FULL_HEADERS),
    "/about": (_, res) => page(res, wellPage("en", "About Wellkept", ""), FULL_HEADERS),
    "/fr/": (_, res) => page(res, wellPage("fr", "Université de Wellkept", ""), FULL_HEADERS),
    "/research": (_, res) =>
      page(
        res,
        wellPage(
          "en",
          "Research at Wellkept",
          `${ORCIDS.map((id) => `<a href="https://orcid.org/${id}">ORCID</a>`).join(" ")}
<a href="https://scholar.google.com/citations?user=wk1">Scholar</a>
<a href="https://www.researchgate.net/profile/Ada-Wellkept">ResearchGate</a>`,
        ),
        FULL_HEADERS,
      ),
    "/private/staff": (_, res) => page(res, wellPage("en", "Private", ""), FULL_HEADERS),
    "/robots.txt": (_, res) =>
      page(res, "User-agent: *\nDisallow: /private/\nSitemap: https://well.test/sitemap.xml\n", {
        "content-type": "text/plain",
      }),
    "/sitemap.xml": (_, res) => page(res, sitemap(12), { "content-type": "application/xml" }),
    "/.well-known/mta-sts.txt": (_, res) =>
      page(res, "version: STSv1\nmode: enforce\nmx: mx.well.test\nmax_age: 86400\n", {
        "content-type": "text/plain",
      }),
  }),
};

const simple = (domain: string, over: Partial<FixtureSite> = {}): FixtureSite => ({
  domain,
  https: routes({ "/": (_, res) => page(res, plain(`Home of ${domain}`), FULL_HEADERS) }),
  ...over,
});

export const TROUBLED: FixtureSite[] = [
  simple("expired.test", { cert: "expired" }),
  simple("wrongname.test", { cert: "wrong-name" }),
  simple("selfsigned.test", { cert: "self-signed" }),
  simple("tls12.test", { maxTls: "TLSv1.2" }),
  {
    domain: "nohsts.test",
    https: routes({ "/": (_, res) => page(res, plain("No HSTS here")) }),
    http: routes({ "/": (_, res) => page(res, plain("No HSTS here")) }),
  },
  {
    domain: "loop.test",
    https: (req, res) => redirect(res, req.url === "/a" ? "/b" : "/a", 302),
    http: (req, res) => redirect(res, req.url === "/a" ? "/b" : "/a", 302),
  },
  { domain: "tarpit.test", tarpit: true },
  {
    domain: "huge.test",
    https: routes({
      "/": (_, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        const chunk = `<p>${"x".repeat(1020)}</p>\n`;
        const block = chunk.repeat(1024); // ~1 MB
        res.write(`<html lang="en">${head("A heavy home page")}<body>`);
        for (let i = 0; i < 20; i++) res.write(block);
        res.end("</body></html>");
      },
    }),
  },
  {
    domain: "garbage.test",
    https: routes({
      "/": (_, res) =>
        page(
          res,
          `<<html lang=>>\u0000<title><<</tit<h1 <a href="javascript:alert(1)">x</a><a href="http://[::1">y</a>%%\uFFFD</`,
        ),
    }),
  },
  {
    domain: "closed.test",
    https: routes({
      "/": (_, res) =>
        page(
          res,
          `<html lang="en">${head("Closed to robots")}<body><h1>Closed</h1><a href="/a">a</a></body></html>`,
          FULL_HEADERS,
        ),
      "/a": (_, res) => page(res, plain("a")),
      "/robots.txt": (_, res) => page(res, "User-agent: *\nDisallow: /\n", { "content-type": "text/plain" }),
    }),
  },
];

const urlset = (domain: string, prefix: string, n: number) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from(
    { length: n },
    (_, i) => `<url><loc>https://${domain}/${prefix}-${i}</loc></url>`,
  ).join("")}</urlset>`;
const bigUrlsets = new Map<string, string>();
const bigUrlset = (prefix: string) => {
  let xml = bigUrlsets.get(prefix);
  if (!xml) {
    xml = urlset("bigmap.test", prefix, 50_000);
    bigUrlsets.set(prefix, xml);
  }
  return xml;
};
const XML = { "content-type": "application/xml" };
const TOKEN = (n: number) => `google-site-verification=${String(n).repeat(240).slice(0, 240)}`;

/** Sites that test the reading of well-known files and DNS as their references define them. */
export const WELL_KNOWN: FixtureSite[] = [
  {
    // Answers every path with its home page: it has no robots.txt, sitemap or MTA-STS policy.
    domain: "everypath.test",
    dns: { mtaSts: ["v=STSv1; id=1"], mx: ["mx.everypath.test"] },
    https: (_, res) => page(res, plain("Everything is the home page"), FULL_HEADERS),
  },
  {
    // A sitemap index that lists itself and two children of 50,000 URLs (one of them twice).
    domain: "bigmap.test",
    https: routes({
      "/": (_, res) => page(res, plain("Big map"), FULL_HEADERS),
      "/robots.txt": (_, res) =>
        page(res, "User-agent: *\nAllow: /\nSitemap: https://bigmap.test/sitemap.xml\n", {
          "content-type": "text/plain",
        }),
      "/sitemap.xml": (_, res) =>
        page(
          res,
          `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[
            "sitemap.xml",
            "a.xml",
            "a.xml",
            "b.xml",
          ]
            .map((f) => `<sitemap><loc>https://bigmap.test/${f}</loc></sitemap>`)
            .join("")}</sitemapindex>`,
          XML,
        ),
      "/a.xml": (_, res) => page(res, bigUrlset("a"), XML),
      "/b.xml": (_, res) => page(res, bigUrlset("b"), XML),
    }),
  },
  {
    // A TXT set too large for a UDP answer (RFC 7766: read over TCP), with an SPF policy of three includes.
    domain: "bigtxt.test",
    dns: {
      spf: [
        `v=spf1 include:_a.spf.bigtxt.test include:_b.spf.bigtxt.test include:_c.spf.bigtxt.test ${Array.from(
          { length: 12 },
          (_, i) => `ip4:192.0.2.${i + 1}`,
        ).join(" ")} -all`,
      ],
      domainTxt: [1, 2, 3, 4, 5].map(TOKEN),
      txt: {
        "_a.spf.bigtxt.test": ["v=spf1 ip4:198.51.100.0/24 ~all"],
        "_b.spf.bigtxt.test": ["v=spf1 ip6:2001:db8::/32 ~all"],
        "_c.spf.bigtxt.test": ["v=spf1 a:mail.bigtxt.test ~all"],
      },
    },
    https: routes({ "/": (_, res) => page(res, plain("Big TXT"), FULL_HEADERS) }),
  },
  {
    // A TXT set over 512 bytes but under the 1232 offered with EDNS0: one UDP answer, no TCP.
    domain: "mediumtxt.test",
    dns: { spf: ["v=spf1 mx -all"], domainTxt: [1, 2, 3].map(TOKEN) },
    https: routes({ "/": (_, res) => page(res, plain("Medium TXT"), FULL_HEADERS) }),
  },
];

export const FIXTURE_UNIVERSITIES: FixtureSite[] = [WELL_KEPT, ...TROUBLED];
