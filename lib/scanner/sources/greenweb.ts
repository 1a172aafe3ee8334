import { type Static, Type } from "@sinclair/typebox";
import type { ScoredPart } from "../../scores/check-points.ts";
import { checkTable, earned } from "../rubric/check-table.ts";
import { scoreFromChecks } from "../rubric/points.ts";

/** The Green Web Foundation's `GET /api/v3/greencheck/{hostname}` answer (fields unirank reads). */
export const GreenCheck = Type.Object({
  url: Type.String(),
  green: Type.Boolean(),
  hosted_by: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  hosted_by_website: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  supporting_documents: Type.Optional(Type.Array(Type.Unknown())),
});
export type GreenCheck = Static<typeof GreenCheck>;

export const GREEN_HOSTING_CHECKS = checkTable("green_hosting_score", "greenweb", {
  verified: {
    id: "green.verified",
    label: "Verified green hosting",
    max: 80,
    earns: "`green` is true",
    remediation: "Host with a provider listed by the Green Web Foundation (renewable energy, verified).",
  },
  evidence: {
    id: "green.evidence",
    label: "Published evidence",
    max: 20,
    earns: "green, and the provider published at least one supporting document",
    remediation: "Choose a provider that publishes its renewable-energy evidence.",
  },
});

/** Green hosting: verified green 80 points, and 20 more when the provider published supporting evidence. */
export function scoreGreenCheck(g: GreenCheck): ScoredPart {
  const host = g.hosted_by ? ` by ${g.hosted_by}` : "";
  const docs = g.supporting_documents?.length ?? 0;
  const green = earned(
    GREEN_HOSTING_CHECKS.verified,
    g.green ? 80 : 0,
    g.green ? `${g.url} is hosted green${host}.` : `${g.url} is not known to be hosted green${host}.`,
  );
  const evidence = earned(
    GREEN_HOSTING_CHECKS.evidence,
    g.green && docs > 0 ? 20 : 0,
    g.green
      ? `The provider published ${docs} supporting document${docs === 1 ? "" : "s"}.`
      : "No verified green host.",
  );
  const checks = [green, evidence];
  return { scores: { green_hosting_score: scoreFromChecks(checks) }, checks, unmeasured: {} };
}
