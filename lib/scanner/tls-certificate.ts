import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { check, scoredFrom, tiered } from "./points.ts";

const S = "tech_ssl_score" as const;
const DAY = 86_400_000;
/** Errors about dates or the name only: the chain itself is sound (those are scored by their own checks). */
const NOT_CHAIN_ERRORS = new Set(["CERT_HAS_EXPIRED", "CERT_NOT_YET_VALID", "ERR_TLS_CERT_ALTNAME_INVALID"]);

/** Days from `observed_at` to the certificate's end of validity (negative once expired), or null. */
export function daysToExpiry(o: Pick<Observations, "tls" | "observed_at">): number | null {
  if (!o.tls.valid_to) return null;
  return Math.floor((Date.parse(o.tls.valid_to) - Date.parse(o.observed_at)) / DAY);
}

/** tech_ssl_score: the certificate is in date, chains to a trusted root, names the host, has a strong key, is not about to expire. */
export function scoreTlsCertificate(o: Observations): ScoredPart {
  const t = o.tls;
  const now = Date.parse(o.observed_at);
  const inDate =
    t.connected &&
    t.valid_from !== null &&
    t.valid_to !== null &&
    Date.parse(t.valid_from) <= now &&
    now <= Date.parse(t.valid_to);
  const chainOk = t.connected && (t.authorized || NOT_CHAIN_ERRORS.has(t.authorization_error ?? ""));
  const strong =
    t.connected &&
    t.key_bits !== null &&
    ((t.key_type === "RSA" && t.key_bits >= 2048) || (t.key_type === "EC" && t.key_bits >= 256));
  const days = daysToExpiry(o);
  const margin =
    inDate && days !== null
      ? tiered(days, [
          [30, 10],
          [14, 5],
        ])
      : 0;
  const none = `no TLS handshake with ${o.domain}: ${t.error ?? "unknown error"}`;
  return scoredFrom(S, [
    check(
      S,
      "ssl.in-date",
      "Certificate in date",
      inDate ? 30 : 0,
      30,
      t.connected ? `valid from ${t.valid_from} to ${t.valid_to}` : none,
      "Renew the certificate before it expires and automate renewal (ACME).",
    ),
    check(
      S,
      "ssl.trusted-chain",
      "Chain to a trusted root",
      chainOk ? 30 : 0,
      30,
      t.connected
        ? t.authorized
          ? `issued by ${t.issuer}, chain verified`
          : `chain not trusted: ${t.authorization_error}`
        : none,
      "Serve a certificate from a public CA together with its intermediate certificates.",
    ),
    check(
      S,
      "ssl.name-match",
      "Certificate names the host",
      t.connected && t.name_matches ? 20 : 0,
      20,
      t.connected
        ? t.name_matches
          ? `covers ${o.domain}`
          : `does not cover ${o.domain} (subject ${t.subject})`
        : none,
      "List the host name in the certificate's subject alternative names.",
    ),
    check(
      S,
      "ssl.key-strength",
      "Strong key",
      strong ? 10 : 0,
      10,
      t.connected ? `${t.key_type ?? "unknown"} key of ${t.key_bits ?? "?"} bits` : none,
      "Use an RSA key of at least 2048 bits or an EC key of at least 256 bits.",
    ),
    check(
      S,
      "ssl.expiry-margin",
      "Days to expiry",
      margin,
      10,
      days === null ? none : `${days} days to expiry`,
      "Renew certificates at least 30 days before they expire.",
    ),
  ]);
}
