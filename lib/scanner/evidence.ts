import { type Static, Type } from "@sinclair/typebox";
import { ObservationsSchema } from "./observations.ts";

export const CheckPointsSchema = Type.Object({
  id: Type.String({ description: "`<area>.<check>`, documented in docs/scanner.md" }),
  score: Type.String({ description: "The sub-score the check counts towards" }),
  label: Type.String(),
  points: Type.Number(),
  max: Type.Number(),
  detail: Type.String({ description: "What was observed" }),
  remediation: Type.Union([Type.String(), Type.Null()], { description: "How to earn the missing points" }),
});

/** What a scan keeps besides its scores: the observations, the points of every check, why a score is null. */
export const ScanEvidenceSchema = Type.Object(
  {
    observations: Type.Union([ObservationsSchema, Type.Null()]),
    checks: Type.Array(CheckPointsSchema),
    unmeasured: Type.Record(Type.String(), Type.String(), { description: "Sub-score → why it is null" }),
    failure_reason: Type.Optional(Type.String({ description: "Why a failed scan failed" })),
  },
  { description: "Observations and per-check points behind a scan's scores (scans made by `unirank scan`)" },
);

export type ScanEvidence = Static<typeof ScanEvidenceSchema>;
