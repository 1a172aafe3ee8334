import { type Static, Type } from "@sinclair/typebox";

/** What the scanner saw on a university's own site and DNS: the input of every rubric, kept as scan evidence. */

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const TlsObservationSchema = Type.Object({
  /** False when no TLS handshake completed (then the other fields are empty). */
  connected: Type.Boolean(),
  error: Nullable(Type.String()),
  /** The chain verifies to a trusted root (the system's, plus `--ca-file`). */
  authorized: Type.Boolean(),
  /** OpenSSL's reason when not authorized (e.g. `CERT_HAS_EXPIRED`, `DEPTH_ZERO_SELF_SIGNED_CERT`). */
  authorization_error: Nullable(Type.String()),
  name_matches: Type.Boolean(),
  subject: Nullable(Type.String()),
  issuer: Nullable(Type.String()),
  valid_from: Nullable(Type.String({ description: "ISO 8601" })),
  valid_to: Nullable(Type.String({ description: "ISO 8601" })),
  key_type: Nullable(Type.String({ description: "RSA or EC" })),
  key_bits: Type.Union([Type.Integer(), Type.Null()]),
  protocol: Nullable(Type.String()),
  /** The protocol chosen by ALPN when h2 and http/1.1 were offered. */
  alpn: Nullable(Type.String()),
});

export const TlsVersionsSchema = Type.Object({
  tls13: Type.Boolean(),
  tls12: Type.Boolean(),
  tls11: Type.Boolean(),
  tls10: Type.Boolean(),
});

export const HttpRedirectSchema = Type.Object({
  /** The plain-HTTP home page answered at all. */
  reachable: Type.Boolean(),
  /** Every URL of the chain, starting with `http://domain/`. */
  chain: Type.Array(Type.String()),
  final_url: Nullable(Type.String()),
  error: Nullable(Type.String()),
  /** Where the redirects end on HTTPS: its certificate is one a browser accepts. */
  verified: Type.Optional(Type.Boolean()),
});

export const LinkSchema = Type.Object({ href: Type.String(), text: Type.String() });

export const PageSchema = Type.Object({
  url: Type.String(),
  status: Type.Integer(),
  bytes: Type.Integer(),
  /** The byte cap cut the body short. */
  truncated: Type.Boolean(),
  lang: Nullable(Type.String()),
  title: Nullable(Type.String()),
  description: Nullable(Type.String()),
  canonical: Nullable(Type.String()),
  h1_count: Type.Integer(),
  /** `<meta name="robots">` and the `X-Robots-Tag` header, joined. */
  robots_meta: Nullable(Type.String()),
  hreflang: Type.Array(Type.Object({ lang: Type.String(), href: Type.String() })),
  /** Absolute links found on the page (de-duplicated). */
  links: Type.Array(Type.String()),
  /** Contents of `<meta http-equiv="Content-Security-Policy">`, when the page has any. */
  meta_csp: Type.Optional(Type.Array(Type.String())),
  /** Content of the last `<meta name="referrer">`, when the page has one. */
  meta_referrer: Type.Optional(Type.String()),
});

export const HomeSchema = Type.Object({
  url: Type.String(),
  status: Type.Integer(),
  /** Response headers, names in lower case. */
  headers: Type.Record(Type.String(), Type.String()),
  /** Over HTTPS: the certificate it was served with is one a browser accepts (chain, dates, name). */
  verified: Type.Optional(Type.Boolean()),
});

export const RobotsSchema = Type.Object({
  status: Type.Union([Type.Integer(), Type.Null()]),
  /** Answered 200 with something that is plausibly a robots.txt (not an HTML page). */
  found: Type.Boolean(),
  content_type: Type.Optional(Nullable(Type.String())),
  allows_home: Type.Boolean(),
  sitemaps: Type.Array(Type.String()),
});

export const SitemapSchema = Type.Object({
  url: Nullable(Type.String()),
  /** Answered 200 with something that is plausibly a sitemap (XML or a text list of URLs, not an HTML page). */
  found: Type.Boolean(),
  valid: Type.Boolean(),
  /** Page URLs counted: a urlset's `<loc>` entries, or those of up to 3 child sitemaps of an index (at most 50,000 a file). */
  urls: Type.Integer(),
  content_type: Type.Optional(Nullable(Type.String())),
  /** It is a sitemap index; `children` of its child sitemaps were read. */
  index: Type.Optional(Type.Boolean()),
  children: Type.Optional(Type.Integer()),
});

export const SpfDnsAnswerSchema = Type.Object({
  name: Type.String(),
  type: Type.String({ description: "TXT, A, AAAA, MX or PTR" }),
  /** The DNS RCODE (0 NOERROR, 3 NXDOMAIN), null when the query failed (`error`). */
  rcode: Type.Union([Type.Integer(), Type.Null()]),
  /** TXT: the records starting with `v=spf1`; A/AAAA: addresses; MX: exchanges. */
  records: Type.Array(Type.String()),
  error: Type.Optional(Type.String()),
});

export const DnsSchema = Type.Object({
  /** The resolver answered at all. */
  answered: Type.Boolean(),
  addresses: Type.Array(Type.String()),
  /** TXT records of the domain that start with `v=spf1` (in any case). */
  spf: Type.Array(Type.String()),
  /** The answers an SPF evaluation of the domain's policy needed (includes, redirects, a, mx, exists). */
  spf_dns: Type.Optional(Type.Array(SpfDnsAnswerSchema)),
  /** TXT records of `_dmarc.<domain>` whose first tag is `v` (any case; the rubric keeps the valid ones). */
  dmarc: Type.Array(Type.String()),
  mx: Type.Array(Type.String()),
  /** The validating resolver set the AD (authenticated data) flag on the answer for the domain. */
  dnssec_ad: Type.Boolean(),
  /** TXT records of `_mta-sts.<domain>` that start with `v=STSv1`. */
  mta_sts: Type.Array(Type.String()),
  /** `mode` of `https://mta-sts.<domain>/.well-known/mta-sts.txt`, null when not fetched. */
  mta_sts_mode: Nullable(Type.String()),
});

export const AvailabilitySchema = Type.Object({
  answered: Type.Integer({ minimum: 0 }),
  total: Type.Integer({ minimum: 0 }),
});

export const ObservationsSchema = Type.Object({
  domain: Type.String(),
  /** When the observations were made (ISO 8601); certificate expiry is counted from it. */
  observed_at: Type.String(),
  tls: TlsObservationSchema,
  tls_versions: TlsVersionsSchema,
  http_redirect: HttpRedirectSchema,
  home: Type.Union([HomeSchema, Type.Null()]),
  /** The home page first, then the crawled pages. */
  pages: Type.Array(PageSchema),
  robots: RobotsSchema,
  sitemap: SitemapSchema,
  dns: DnsSchema,
  availability: Type.Optional(Type.Union([AvailabilitySchema, Type.Null()])),
});

export type TlsObservation = Static<typeof TlsObservationSchema>;
export type TlsVersions = Static<typeof TlsVersionsSchema>;
export type HttpRedirect = Static<typeof HttpRedirectSchema>;
export type PageObservation = Static<typeof PageSchema>;
export type HomeObservation = Static<typeof HomeSchema>;
export type RobotsObservation = Static<typeof RobotsSchema>;
export type SitemapObservation = Static<typeof SitemapSchema>;
export type DnsObservation = Static<typeof DnsSchema>;
export type SpfDnsAnswer = Static<typeof SpfDnsAnswerSchema>;
export type Availability = Static<typeof AvailabilitySchema>;
export type Observations = Static<typeof ObservationsSchema>;
