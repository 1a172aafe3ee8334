import { type Static, Type } from "@sinclair/typebox";
import type { ScoredPart } from "../../scores/check-points.ts";
import { check, scoreFromChecks } from "../points.ts";

/** The Green Web Foundation's `GET /api/v3/greencheck/{hostname}` answer (fields unirank reads). */
export const GreenCheck = Type.Object({
  url: Type.String(),
  green: Type.Boolean(),
  hosted_by: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  hosted_by_website: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  supporting_documents: Type.Optional(Type.Array(Type.Unknown())),
});
export type GreenCheck = Static<typeof GreenCheck>;

/** Green hosting: verified green 80 points, and 20 more when the provider published supporting evidence. */
export function scoreGreenCheck(g: GreenCheck): ScoredPart {
  const host = g.hosted_by ? ` by ${g.hosted_by}` : "";
  const docs = g.supporting_documents?.length ?? 0;
  const green = check(
    "green_hosting_score",
    "green.verified",
    "Verified green hosting",
    g.green ? 80 : 0,
    80,
    g.green ? `${g.url} is hosted green${host}.` : `${g.url} is not known to be hosted green${host}.`,
    "Host with a provider listed by the Green Web Foundation (renewable energy, verified).",
  );
  const evidence = check(
    "green_hosting_score",
    "green.evidence",
    "Published evidence",
    g.green && docs > 0 ? 20 : 0,
    20,
    g.green
      ? `The provider published ${docs} supporting document${docs === 1 ? "" : "s"}.`
      : "No verified green host.",
    "Choose a provider that publishes its renewable-energy evidence.",
  );
  const checks = [green, evidence];
  return { scores: { green_hosting_score: scoreFromChecks(checks) }, checks, unmeasured: {} };
}
