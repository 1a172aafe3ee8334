import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { checkTable, earned } from "./rubric/check-table.ts";
import { scoredFrom, tiered } from "./rubric/points.ts";

const S = "tech_ssl_score" as const;
const DAY = 86_400_000;
/** Errors about dates or the name only: the chain itself is sound (those are scored by their own checks). */
const NOT_CHAIN_ERRORS = new Set(["CERT_HAS_EXPIRED", "CERT_NOT_YET_VALID", "ERR_TLS_CERT_ALTNAME_INVALID"]);
/** The most a certificate browsers refuse may score (SSL Labs caps such a server: grade T, or M for the name). */
export const REFUSED_CERTIFICATE_CAP = 20;

export const TLS_CERTIFICATE_CHECKS = checkTable(S, "unirank", {
  inDate: {
    id: "ssl.in-date",
    label: "Certificate in date",
    max: 30,
    earns: "the scan time is between the certificate's not-before and not-after",
    remediation: "Renew the certificate before it expires and automate renewal (ACME).",
  },
  trustedChain: {
    id: "ssl.trusted-chain",
    label: "Chain to a trusted root",
    max: 30,
    earns:
      "the chain verifies to a trusted root (system roots plus --ca-file); errors about dates or the name alone do not cost these points",
    remediation: "Serve a certificate from a public CA together with its intermediate certificates.",
  },
  nameMatch: {
    id: "ssl.name-match",
    label: "Certificate names the host",
    max: 20,
    earns: "the certificate covers the domain (subject alternative names)",
    remediation: "List the host name in the certificate's subject alternative names.",
  },
  keyStrength: {
    id: "ssl.key-strength",
    label: "Strong key",
    max: 10,
    earns: "RSA ≥ 2048 bits or EC ≥ 256 bits",
    remediation: "Use an RSA key of at least 2048 bits or an EC key of at least 256 bits.",
  },
  expiryMargin: {
    id: "ssl.expiry-margin",
    label: "Days to expiry",
    max: 10,
    earns: "≥ 30 days to expiry: 10; 14–29 days: 5; fewer or expired: 0",
    remediation: "Renew certificates at least 30 days before they expire.",
  },
  browserTrust: {
    id: "ssl.browser-trust",
    label: "Certificate browsers accept",
    max: 0,
    earns: `0 when browsers accept the certificate; one they refuse (untrusted chain, expired, not yet valid, wrong name) takes away every point above ${REFUSED_CERTIFICATE_CAP}, so the sub-score is at most ${REFUSED_CERTIFICATE_CAP}`,
    remediation: "Serve a certificate browsers accept: in date, for this name, chaining to a public root.",
    reference: "ssl-labs",
  },
});

/** Days from `observed_at` to the certificate's end of validity (negative once expired), or null. */
export function daysToExpiry(o: Pick<Observations, "tls" | "observed_at">): number | null {
  if (!o.tls.valid_to) return null;
  return Math.floor((Date.parse(o.tls.valid_to) - Date.parse(o.observed_at)) / DAY);
}

/** Why browsers refuse the certificate, or null when they accept it (or there was no handshake). */
export function refusedBecause(o: Pick<Observations, "tls" | "observed_at">): string | null {
  const t = o.tls;
  if (!t.connected) return null;
  const now = Date.parse(o.observed_at);
  if (t.valid_to !== null && Date.parse(t.valid_to) < now) return "expired";
  if (t.valid_from !== null && now < Date.parse(t.valid_from)) return "not yet valid";
  if (!t.name_matches) return "issued for another name";
  if (!t.authorized) return `not trusted (${t.authorization_error ?? "unknown error"})`;
  return null;
}

/**
 * tech_ssl_score: the certificate is in date, chains to a trusted root, names the host, has a strong key, is not
 * about to expire; a certificate browsers refuse scores at most 20.
 */
export function scoreTlsCertificate(o: Observations): ScoredPart {
  const C = TLS_CERTIFICATE_CHECKS;
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
  const checks = [
    earned(C.inDate, inDate ? 30 : 0, t.connected ? `valid from ${t.valid_from} to ${t.valid_to}` : none),
    earned(
      C.trustedChain,
      chainOk ? 30 : 0,
      t.connected
        ? t.authorized
          ? `issued by ${t.issuer}, chain verified`
          : `chain not trusted: ${t.authorization_error}`
        : none,
    ),
    earned(
      C.nameMatch,
      t.connected && t.name_matches ? 20 : 0,
      t.connected
        ? t.name_matches
          ? `covers ${o.domain}`
          : `does not cover ${o.domain} (subject ${t.subject})`
        : none,
    ),
    earned(
      C.keyStrength,
      strong ? 10 : 0,
      t.connected ? `${t.key_type ?? "unknown"} key of ${t.key_bits ?? "?"} bits` : none,
    ),
    earned(C.expiryMargin, margin, days === null ? none : `${days} days to expiry`),
  ];
  const refused = refusedBecause(o);
  const sum = checks.reduce((n, c) => n + c.points, 0);
  const over = refused ? Math.max(0, sum - REFUSED_CERTIFICATE_CAP) : 0;
  const cut = over === 0 ? 0 : -over;
  checks.push(
    earned(
      C.browserTrust,
      cut,
      refused
        ? `browsers refuse the certificate: ${refused}; the sub-score is capped at ${REFUSED_CERTIFICATE_CAP}`
        : t.connected
          ? "browsers accept the certificate"
          : none,
    ),
  );
  return scoredFrom(S, checks);
}
