import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { check, scoredFrom } from "./points.ts";

/** The `all` qualifier of an SPF record (`-`, `~`, `?`, `+`), or null without an `all`. */
export function spfAll(record: string): string | null {
  const m = /(?:^|\s)([-~?+]?)all(?:\s|$)/i.exec(record);
  return m ? m[1] || "+" : null;
}

const SPF_ALL: Record<string, [number, string]> = {
  "-": [60, "ends in -all (hard fail)"],
  "~": [40, "ends in ~all (soft fail)"],
  "?": [10, "ends in ?all (neutral)"],
  "+": [0, "ends in +all (anyone may send)"],
};

/** email_spf_score: one SPF record, ending in -all. */
export function scoreSpf(o: Observations): ScoredPart {
  const S = "email_spf_score" as const;
  const records = o.dns.spf;
  const one = records.length === 1 ? records[0] : undefined;
  const all = one ? spfAll(one) : null;
  const [points, said] = one ? (all ? (SPF_ALL[all] ?? [0, ""]) : [10, "has no all mechanism"]) : [0, ""];
  return scoredFrom(S, [
    check(
      S,
      "spf.single-record",
      "One SPF record",
      one ? 40 : 0,
      40,
      records.length === 0
        ? "no SPF record"
        : records.length > 1
          ? `${records.length} SPF records (invalid)`
          : (one ?? ""),
      "Publish exactly one TXT record starting with v=spf1.",
    ),
    check(
      S,
      "spf.all",
      "Strict all qualifier",
      points,
      60,
      one ? `the record ${said}` : "no single SPF record",
      "End the SPF record with -all.",
    ),
  ]);
}

/** The tags of a DMARC record, names in lower case. */
export function dmarcTags(record: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(";")) {
    const i = part.indexOf("=");
    if (i > 0) tags.set(part.slice(0, i).trim().toLowerCase(), part.slice(i + 1).trim());
  }
  return tags;
}

const POLICY: Record<string, number> = { reject: 50, quarantine: 35, none: 5 };

/** email_dmarc_score: one DMARC record, its policy, applied to all mail, with aggregate reports. */
export function scoreDmarc(o: Observations): ScoredPart {
  const S = "email_dmarc_score" as const;
  const records = o.dns.dmarc;
  const one = records.length === 1 ? records[0] : undefined;
  const tags = one ? dmarcTags(one) : new Map<string, string>();
  const p = (tags.get("p") ?? "").toLowerCase();
  const pct = tags.get("pct");
  return scoredFrom(S, [
    check(
      S,
      "dmarc.record",
      "One DMARC record",
      one ? 30 : 0,
      30,
      records.length === 0
        ? "no DMARC record at _dmarc"
        : records.length > 1
          ? `${records.length} DMARC records (invalid)`
          : (one ?? ""),
      "Publish one TXT record v=DMARC1 at _dmarc.<domain>.",
    ),
    check(
      S,
      "dmarc.policy",
      "Policy",
      POLICY[p] ?? 0,
      50,
      one ? `p=${p || "(missing)"}` : "no DMARC record",
      "Move the DMARC policy to p=reject (or p=quarantine).",
    ),
    check(
      S,
      "dmarc.pct",
      "Applied to all mail",
      one && (pct === undefined || pct === "100") ? 10 : 0,
      10,
      one ? `pct=${pct ?? "100 (default)"}` : "no DMARC record",
      "Apply the policy to all mail (pct=100).",
    ),
    check(
      S,
      "dmarc.reports",
      "Aggregate reports",
      tags.has("rua") ? 10 : 0,
      10,
      tags.has("rua") ? `rua=${tags.get("rua")}` : "no rua address",
      "Ask for aggregate reports with rua=.",
    ),
  ]);
}

/** email_dnssec_score: the validating resolver marked the domain's answer authenticated (AD flag). */
export function scoreDnssec(o: Observations): ScoredPart {
  const S = "email_dnssec_score" as const;
  return scoredFrom(S, [
    check(
      S,
      "dnssec.ad",
      "Answer authenticated",
      o.dns.dnssec_ad ? 100 : 0,
      100,
      o.dns.dnssec_ad ? "the resolver set the AD flag" : "the resolver did not set the AD flag",
      "Sign the DNS zone with DNSSEC and publish the DS record at the parent.",
    ),
  ]);
}

/** email_security_score: SPF and DMARC (scaled from their sub-scores), MX, MTA-STS record and policy. */
export function scoreEmailSecurity(o: Observations, spf: number, dmarc: number): ScoredPart {
  const S = "email_security_score" as const;
  const mode = o.dns.mta_sts_mode;
  return scoredFrom(S, [
    check(
      S,
      "email.spf",
      "SPF",
      Math.round((30 * spf) / 100),
      30,
      `SPF scores ${spf}`,
      "Publish a strict SPF record.",
    ),
    check(
      S,
      "email.dmarc",
      "DMARC",
      Math.round((40 * dmarc) / 100),
      40,
      `DMARC scores ${dmarc}`,
      "Enforce DMARC.",
    ),
    check(
      S,
      "email.mx",
      "Mail exchangers",
      o.dns.mx.length > 0 ? 10 : 0,
      10,
      o.dns.mx.length ? `MX ${o.dns.mx.join(", ")}` : "no MX record",
      "Publish the domain's MX records.",
    ),
    check(
      S,
      "email.mta-sts-record",
      "MTA-STS record",
      o.dns.mta_sts.length === 1 ? 10 : 0,
      10,
      o.dns.mta_sts.length ? o.dns.mta_sts.join(" | ") : "no _mta-sts record",
      "Publish v=STSv1 at _mta-sts.<domain>.",
    ),
    check(
      S,
      "email.mta-sts-policy",
      "MTA-STS policy enforced",
      mode === "enforce" ? 10 : mode === "testing" ? 5 : 0,
      10,
      mode ? `mode: ${mode}` : "no MTA-STS policy",
      "Serve an MTA-STS policy with mode: enforce.",
    ),
  ]);
}
