import type { ScoredPart } from "../scores/check-points.ts";
import { discoverDmarc } from "./dmarc.ts";
import type { Observations } from "./observations.ts";
import { checkTable, earned } from "./rubric/check-table.ts";
import { scoredFrom } from "./rubric/points.ts";
import { evaluateSpfPolicy, runSpf, type SpfAnswer, type SpfEvaluation, spfRecords } from "./spf.ts";

export const SPF_CHECKS = checkTable("email_spf_score", "rfc7208", {
  record: {
    id: "spf.single-record",
    label: "One valid SPF record",
    max: 40,
    earns:
      "exactly one TXT record starting v=spf1 whose policy evaluates without a permerror or temperror (RFC 7208: its syntax, includes and redirect= found, at most 10 DNS-querying terms and 2 void lookups)",
    remediation:
      "Publish exactly one v=spf1 TXT record that parses, with at most 10 DNS-querying terms (include, a, mx, ptr, exists, redirect) in all.",
  },
  all: {
    id: "spf.all",
    label: "Strict default",
    max: 60,
    earns:
      "what a sender the policy does not name gets (its all, or the redirect='s): fail (-all) 60; softfail (~all) 40; neutral (?all, or no all) 10; pass (+all) 0; an invalid policy 0",
    remediation: "End the SPF record with -all.",
  },
});

export const DMARC_CHECKS = checkTable("email_dmarc_score", "rfc7489", {
  record: {
    id: "dmarc.record",
    label: "One DMARC record receivers apply",
    max: 30,
    earns:
      "exactly one v=DMARC1 record at _dmarc.<domain> that a receiver applies (RFC 7489 §6.6.3: v=DMARC1 first and case-sensitive, p right after it, no tag twice; without a valid p or with an invalid sp only when a valid rua makes it p=none)",
    remediation: "Publish one TXT record v=DMARC1; p=…; rua=mailto:… at _dmarc.<domain>.",
  },
  policy: {
    id: "dmarc.policy",
    label: "Policy",
    max: 50,
    earns: "p=reject 50; p=quarantine 35; p=none 5",
    remediation: "Move the DMARC policy to p=reject (or p=quarantine).",
  },
  pct: {
    id: "dmarc.pct",
    label: "Applied to all mail",
    max: 10,
    earns: "pct absent or 100",
    remediation: "Apply the policy to all mail (pct=100).",
  },
  reports: {
    id: "dmarc.reports",
    label: "Aggregate reports",
    max: 10,
    earns: "a valid rua URI",
    remediation: "Ask for aggregate reports with rua=mailto:….",
  },
});

export const DNSSEC_CHECKS = checkTable("email_dnssec_score", "rfc6840", {
  ad: {
    id: "dnssec.ad",
    label: "Answer authenticated",
    max: 100,
    earns:
      "the resolver set the AD flag on its answer for the domain's A record (needs a validating resolver)",
    remediation: "Sign the DNS zone with DNSSEC and publish the DS record at the parent.",
  },
});

export const EMAIL_CHECKS = checkTable("email_security_score", "unirank", {
  spf: {
    id: "email.spf",
    label: "SPF",
    max: 30,
    earns: "× email_spf_score / 100, rounded",
    remediation: "Publish a strict SPF record.",
  },
  dmarc: {
    id: "email.dmarc",
    label: "DMARC",
    max: 40,
    earns: "× email_dmarc_score / 100, rounded",
    remediation: "Enforce DMARC.",
  },
  mx: {
    id: "email.mx",
    label: "Mail exchangers",
    max: 10,
    earns: "the domain has MX records",
    remediation: "Publish the domain's MX records.",
  },
  mtaStsRecord: {
    id: "email.mta-sts-record",
    label: "MTA-STS record",
    max: 10,
    earns: "exactly one v=STSv1 record at _mta-sts.<domain>",
    remediation: "Publish v=STSv1 at _mta-sts.<domain>.",
    reference: "rfc8461",
  },
  mtaStsPolicy: {
    id: "email.mta-sts-policy",
    label: "MTA-STS policy enforced",
    max: 10,
    earns: "the policy file (text/plain, version: STSv1) says mode: enforce (5 for testing)",
    remediation: "Serve an MTA-STS policy with mode: enforce.",
    reference: "rfc8461",
  },
});

/** The answers an SPF evaluation of the scan needs, from the observations (those not recorded are unknown). */
function recordedDns(o: Observations): (q: { name: string; type: string }) => SpfAnswer {
  const answers = new Map<string, SpfAnswer>();
  for (const a of o.dns.spf_dns ?? [])
    answers.set(
      `${a.type} ${a.name.toLowerCase()}`,
      a.rcode === null ? { error: a.error ?? "no answer" } : { rcode: a.rcode, records: a.records },
    );
  const top = `TXT ${o.domain.toLowerCase()}`;
  if (!answers.has(top)) answers.set(top, { rcode: 0, records: o.dns.spf });
  return (q) => answers.get(`${q.type} ${q.name.toLowerCase()}`) ?? { unknown: true };
}

/** The domain's published SPF policy evaluated from the observations (RFC 7208, without a client). */
export function spfPolicy(o: Observations): SpfEvaluation {
  return runSpf(evaluateSpfPolicy(o.domain), recordedDns(o));
}

const SPF_DEFAULT: Record<string, [number, string]> = {
  fail: [60, "fail (-all)"],
  softfail: [40, "softfail (~all)"],
  neutral: [10, "neutral (?all or no all)"],
  pass: [0, "pass (anyone may send)"],
};

/** email_spf_score: one valid SPF record whose policy fails senders it does not name. */
export function scoreSpf(o: Observations): ScoredPart {
  const records = spfRecords(o.dns.spf);
  const e = records.length > 0 ? spfPolicy(o) : null;
  const valid = e !== null && !["none", "permerror", "temperror"].includes(e.result);
  const counted = e ? ` (${e.lookups} DNS-querying term(s), ${e.voids} void lookup(s))` : "";
  const [points, said] = valid && e ? (SPF_DEFAULT[e.result] ?? [0, e.result]) : [0, ""];
  return scoredFrom("email_spf_score", [
    earned(
      SPF_CHECKS.record,
      valid ? 40 : 0,
      records.length === 0
        ? "no SPF record"
        : e && !valid
          ? `${records.join(" | ")}: ${e.result}: ${e.reason}`
          : `${records[0]}${counted}`,
    ),
    earned(
      SPF_CHECKS.all,
      points,
      valid && e ? `a sender the policy does not name gets ${said}` : "no valid SPF policy",
    ),
  ]);
}

const POLICY_POINTS: Record<string, number> = { reject: 50, quarantine: 35, none: 5 };

/** email_dmarc_score: one DMARC record receivers apply, its policy, applied to all mail, with aggregate reports. */
export function scoreDmarc(o: Observations): ScoredPart {
  const found = discoverDmarc(o.dns.dmarc);
  const r = found.ok ? found.record : null;
  const seen = o.dns.dmarc.length ? o.dns.dmarc.join(" | ") : "no record at _dmarc";
  return scoredFrom("email_dmarc_score", [
    earned(
      DMARC_CHECKS.record,
      r ? 30 : 0,
      found.ok
        ? `${seen}${r?.ignored.length ? ` (${r.ignored.join("; ")})` : ""}`
        : `${seen}: ${found.reason}`,
    ),
    earned(
      DMARC_CHECKS.policy,
      r ? (POLICY_POINTS[r.p] ?? 0) : 0,
      r ? `p=${r.p}` : "no DMARC policy applies",
    ),
    earned(DMARC_CHECKS.pct, r && r.pct === 100 ? 10 : 0, r ? `pct=${r.pct}` : "no DMARC policy applies"),
    earned(
      DMARC_CHECKS.reports,
      r && r.rua.length > 0 ? 10 : 0,
      r?.rua.length ? `rua=${r.rua.join(",")}` : "no valid rua",
    ),
  ]);
}

/** email_dnssec_score: the validating resolver marked the domain's answer authenticated (AD flag). */
export function scoreDnssec(o: Observations): ScoredPart {
  return scoredFrom("email_dnssec_score", [
    earned(
      DNSSEC_CHECKS.ad,
      o.dns.dnssec_ad ? 100 : 0,
      o.dns.dnssec_ad ? "the resolver set the AD flag" : "the resolver did not set the AD flag",
    ),
  ]);
}

/** email_security_score: SPF and DMARC (scaled from their sub-scores), MX, MTA-STS record and policy. */
export function scoreEmailSecurity(o: Observations, spf: number, dmarc: number): ScoredPart {
  const C = EMAIL_CHECKS;
  const mode = o.dns.mta_sts_mode;
  return scoredFrom("email_security_score", [
    earned(C.spf, Math.round((30 * spf) / 100), `SPF scores ${spf}`),
    earned(C.dmarc, Math.round((40 * dmarc) / 100), `DMARC scores ${dmarc}`),
    earned(
      C.mx,
      o.dns.mx.length > 0 ? 10 : 0,
      o.dns.mx.length ? `MX ${o.dns.mx.join(", ")}` : "no MX record",
    ),
    earned(
      C.mtaStsRecord,
      o.dns.mta_sts.length === 1 ? 10 : 0,
      o.dns.mta_sts.length ? o.dns.mta_sts.join(" | ") : "no _mta-sts record",
    ),
    earned(
      C.mtaStsPolicy,
      mode === "enforce" ? 10 : mode === "testing" ? 5 : 0,
      mode ? `mode: ${mode}` : "no MTA-STS policy",
    ),
  ]);
}
