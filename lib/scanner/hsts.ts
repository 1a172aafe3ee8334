import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { check, scoredFrom } from "./points.ts";

const S = "tech_hsts_score" as const;
const SIX_MONTHS = 15_768_000;
const ONE_YEAR = 31_536_000;

export interface HstsPolicy {
  maxAge: number;
  includeSubDomains: boolean;
  preload: boolean;
}

/** Parses a Strict-Transport-Security value (RFC 6797); null when it is missing or has no valid max-age. */
export function parseHsts(value: string | undefined): HstsPolicy | null {
  if (!value) return null;
  let maxAge: number | null = null;
  let includeSubDomains = false;
  let preload = false;
  for (const part of value.split(";")) {
    const [rawName = "", ...rest] = part.split("=");
    const name = rawName.trim().toLowerCase();
    const arg = rest.join("=").trim().replace(/^"|"$/g, "");
    if (name === "max-age") {
      if (maxAge !== null || !/^\d+$/.test(arg)) return null;
      maxAge = Number(arg);
    } else if (name === "includesubdomains") includeSubDomains = true;
    else if (name === "preload") preload = true;
  }
  return maxAge === null ? null : { maxAge, includeSubDomains, preload };
}

/** tech_hsts_score: a valid Strict-Transport-Security header on the HTTPS home page and how strong it is. */
export function scoreHsts(o: Observations): ScoredPart {
  const https = o.home?.url.startsWith("https:") ? o.home : null;
  const raw = https?.headers["strict-transport-security"];
  const p = parseHsts(raw);
  const seen = !https
    ? "the home page was not served over HTTPS"
    : raw
      ? `Strict-Transport-Security: ${raw}`
      : "no Strict-Transport-Security header";
  const age = p?.maxAge ?? 0;
  return scoredFrom(S, [
    check(
      S,
      "hsts.present",
      "HSTS header",
      p ? 40 : 0,
      40,
      seen,
      "Send Strict-Transport-Security on every HTTPS response.",
    ),
    check(
      S,
      "hsts.six-months",
      "max-age of six months or more",
      age >= SIX_MONTHS ? 30 : 0,
      30,
      p ? `max-age=${age}` : seen,
      "Set max-age to at least 15768000 (six months).",
    ),
    check(
      S,
      "hsts.one-year",
      "max-age of a year or more",
      age >= ONE_YEAR ? 10 : 0,
      10,
      p ? `max-age=${age}` : seen,
      "Set max-age to at least 31536000 (one year).",
    ),
    check(
      S,
      "hsts.include-subdomains",
      "includeSubDomains",
      p?.includeSubDomains ? 10 : 0,
      10,
      seen,
      "Add includeSubDomains once every subdomain serves HTTPS.",
    ),
    check(
      S,
      "hsts.preload",
      "preload",
      p?.preload ? 10 : 0,
      10,
      seen,
      "Add preload and submit the domain to the HSTS preload list.",
    ),
  ]);
}
