import type { Observations, PageObservation } from "../../lib/scanner/observations.ts";

/** A page with everything the rubrics reward, overridable. */
export function goodPage(over: Partial<PageObservation> = {}): PageObservation {
  return {
    url: "https://uni.test/",
    status: 200,
    bytes: 50_000,
    truncated: false,
    lang: "en",
    title: "University of Testing: home",
    description: "The University of Testing teaches and researches everything that can be tested, openly.",
    canonical: "https://uni.test/",
    h1_count: 1,
    robots_meta: null,
    hreflang: [
      { lang: "en", href: "https://uni.test/" },
      { lang: "fr", href: "https://uni.test/fr/" },
      { lang: "x-default", href: "https://uni.test/" },
    ],
    links: [],
    ...over,
  };
}

/** Observations of a well-kept site, overridable one area at a time. */
export function goodObservations(over: Partial<Observations> = {}): Observations {
  return {
    domain: "uni.test",
    observed_at: "2026-06-01T00:00:00.000Z",
    tls: {
      connected: true,
      error: null,
      authorized: true,
      authorization_error: null,
      name_matches: true,
      subject: "CN=uni.test",
      issuer: "CN=Test CA",
      valid_from: "2026-01-01T00:00:00.000Z",
      valid_to: "2027-01-01T00:00:00.000Z",
      key_type: "RSA",
      key_bits: 2048,
      protocol: "TLSv1.3",
      alpn: "h2",
    },
    tls_versions: { tls13: true, tls12: true, tls11: false, tls10: false },
    http_redirect: {
      reachable: true,
      chain: ["http://uni.test/", "https://uni.test/"],
      final_url: "https://uni.test/",
      error: null,
    },
    home: {
      url: "https://uni.test/",
      status: 200,
      headers: {
        "strict-transport-security": "max-age=63072000; includeSubDomains; preload",
        "content-security-policy": "default-src 'none'; img-src 'self'; frame-ancestors 'none'",
        "x-content-type-options": "nosniff",
        "referrer-policy": "strict-origin-when-cross-origin",
        "permissions-policy": "camera=()",
        "alt-svc": 'h3=":443"; ma=86400',
      },
    },
    pages: [goodPage()],
    robots: { status: 200, found: true, allows_home: true, sitemaps: ["https://uni.test/sitemap.xml"] },
    sitemap: { url: "https://uni.test/sitemap.xml", found: true, valid: true, urls: 1200 },
    dns: {
      answered: true,
      addresses: ["192.0.2.1"],
      spf: ["v=spf1 mx -all"],
      dmarc: ["v=DMARC1; p=reject; rua=mailto:dmarc@uni.test"],
      mx: ["mx.uni.test"],
      dnssec_ad: true,
      mta_sts: ["v=STSv1; id=2026"],
      mta_sts_mode: "enforce",
    },
    availability: { answered: 99, total: 100 },
    ...over,
  };
}
