import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { checkTable, earned } from "./rubric/check-table.ts";
import { scoredFrom } from "./rubric/points.ts";

const S = "tech_hsts_score" as const;
/** Six months as the HTTP Observatory counts them (180 days). */
export const HSTS_SIX_MONTHS = 15_552_000;
export const HSTS_ONE_YEAR = 31_536_000;

export const HSTS_CHECKS = checkTable(S, "rfc6797", {
  present: {
    id: "hsts.present",
    label: "HSTS header",
    max: 40,
    earns:
      "a valid Strict-Transport-Security header (RFC 6797 §6.1: one max-age of digits, no directive twice; of several header fields the first) on the HTTPS home page, served with a certificate browsers accept (§8.1)",
    remediation:
      "Send Strict-Transport-Security on every HTTPS response, with a certificate browsers accept.",
  },
  sixMonths: {
    id: "hsts.six-months",
    label: "max-age of six months or more",
    max: 30,
    earns: `max-age ≥ ${HSTS_SIX_MONTHS} (the HTTP Observatory's six months)`,
    remediation: `Set max-age to at least ${HSTS_SIX_MONTHS} (six months).`,
    reference: "mdn-observatory",
  },
  oneYear: {
    id: "hsts.one-year",
    label: "max-age of a year or more",
    max: 10,
    earns: `max-age ≥ ${HSTS_ONE_YEAR}`,
    remediation: `Set max-age to at least ${HSTS_ONE_YEAR} (one year).`,
  },
  includeSubDomains: {
    id: "hsts.include-subdomains",
    label: "includeSubDomains",
    max: 10,
    earns: "includeSubDomains",
    remediation: "Add includeSubDomains once every subdomain serves HTTPS.",
  },
  preload: {
    id: "hsts.preload",
    label: "preload",
    max: 10,
    earns: "preload (hstspreload.org's directive)",
    remediation: "Add preload and submit the domain to the HSTS preload list.",
    reference: "unirank",
  },
});

export interface HstsPolicy {
  maxAge: number;
  includeSubDomains: boolean;
  preload: boolean;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The first header field of a value that joined several with commas (a comma inside quotes does not count). */
function firstField(value: string): string {
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '"') quoted = !quoted;
    else if (c === "\\" && quoted) i++;
    else if (c === "," && !quoted) return value.slice(0, i);
  }
  return value;
}

/**
 * Parses a Strict-Transport-Security value as RFC 6797 §6.1 defines it; null when it is missing or does not
 * conform (no max-age, max-age not digits, a directive given twice, a malformed directive). Of several header
 * fields (joined with commas) the first counts (§8.1).
 */
export function parseHsts(value: string | undefined): HstsPolicy | null {
  if (value === undefined) return null;
  const seen = new Set<string>();
  let maxAge: number | null = null;
  for (const part of firstField(value).split(";")) {
    const directive = part.trim();
    if (!directive) continue;
    const eq = directive.indexOf("=");
    const name = (eq < 0 ? directive : directive.slice(0, eq)).trim().toLowerCase();
    let arg = eq < 0 ? null : directive.slice(eq + 1).trim();
    if (!TOKEN.test(name) || seen.has(name)) return null;
    seen.add(name);
    if (arg?.startsWith('"')) {
      if (arg.length < 2 || !arg.endsWith('"')) return null;
      arg = arg.slice(1, -1).replace(/\\(.)/g, "$1");
    } else if (arg !== null && !TOKEN.test(arg)) return null;
    if (name === "max-age") {
      if (arg === null || !/^\d+$/.test(arg)) return null;
      maxAge = Number(arg);
    }
  }
  if (maxAge === null) return null;
  return { maxAge, includeSubDomains: seen.has("includesubdomains"), preload: seen.has("preload") };
}

/** tech_hsts_score: a valid Strict-Transport-Security header on the HTTPS home page and how strong it is. */
export function scoreHsts(o: Observations): ScoredPart {
  const C = HSTS_CHECKS;
  const https = o.home?.url.startsWith("https:") ? o.home : null;
  const raw = https?.headers["strict-transport-security"];
  const trusted = https ? (https.verified ?? o.tls.authorized) : false;
  const parsed = parseHsts(raw);
  const p = trusted ? parsed : null;
  const seen = !https
    ? "the home page was not served over HTTPS"
    : raw === undefined
      ? "no Strict-Transport-Security header"
      : !trusted
        ? `Strict-Transport-Security: ${raw}, ignored: browsers refuse the certificate (RFC 6797 §8.1)`
        : parsed
          ? `Strict-Transport-Security: ${raw}`
          : `Strict-Transport-Security: ${raw} does not conform to RFC 6797 §6.1`;
  const age = p?.maxAge ?? 0;
  return scoredFrom(S, [
    earned(C.present, p ? 40 : 0, seen),
    earned(C.sixMonths, age >= HSTS_SIX_MONTHS ? 30 : 0, p ? `max-age=${age}` : seen),
    earned(C.oneYear, age >= HSTS_ONE_YEAR ? 10 : 0, p ? `max-age=${age}` : seen),
    earned(C.includeSubDomains, p?.includeSubDomains ? 10 : 0, seen),
    earned(C.preload, p?.preload ? 10 : 0, seen),
  ]);
}
