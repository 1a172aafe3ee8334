import type { ScoreName } from "../scores/catalogue.ts";
import type { ScoredPart } from "../scores/check-points.ts";
import { fillDerivedScores } from "../scores/derive.ts";
import { PROFILE_PARTS, type ProfilePartName, profileOf, UNKNOWN_PROFILE } from "../scores/profile.ts";
import { scoreBrowserObservations } from "./browser/rubric.ts";
import type { PartObservations, ScanEvidence } from "./evidence.ts";
import { completeScores, scoreObservations } from "./score-observations.ts";
import { scoreGreenCheck } from "./sources/greenweb.ts";
import { scoreOpenAlex } from "./sources/openalex.ts";
import { scoreWikidata } from "./sources/wikidata.ts";

type Scores = Partial<Record<ScoreName, number | null>>;

/** A scan's scores, evidence and profile as the current rubrics make them of its stored evidence. */
export interface Rescored {
  /** Every score, composites and overall derived. */
  scores: Scores;
  evidence: ScanEvidence;
  profile: string;
}

/** The scorer of each part's stored observations. */
const PART_SCORERS: {
  [K in keyof PartObservations]-?: (o: NonNullable<PartObservations[K]>) => ScoredPart;
} = {
  browser: scoreBrowserObservations,
  openalex: scoreOpenAlex,
  wikidata: scoreWikidata,
  greenweb: scoreGreenCheck,
};

/** The parts beyond the own site and its availability probes, whose observations the evidence keeps by name. */
const MEASUREMENT_PARTS = PROFILE_PARTS.filter((p) => p.name in PART_SCORERS);

/** What the stored scan says of one part whose observations were not kept: its scores, checks and reasons as they are. */
function keptPart(measures: readonly ScoreName[], stored: Scores, evidence: ScanEvidence): ScoredPart {
  const names = new Set<string>(measures);
  const part: ScoredPart = { scores: {}, checks: [], unmeasured: {} };
  for (const name of measures) {
    part.scores[name] = stored[name] ?? null;
    const reason = evidence.unmeasured[name];
    if (part.scores[name] === null && reason !== undefined) part.unmeasured[name] = reason;
  }
  part.checks = evidence.checks.filter((c) => names.has(c.score)) as ScoredPart["checks"];
  return part;
}

/**
 * Scores a scan's stored evidence under the current rubrics, as a fresh scan of the same observations would: the
 * own site from `observations`, each part from its kept observations. A part whose observations were not kept
 * (evidence from before they were, or cut to fit) keeps its stored scores, checks and reasons. A sub-score still
 * null keeps the reason the scan recorded for it. `profile` is the stored one, or when that is `unknown` the
 * parts the evidence shows: the own site, availability when probes were given, and every part with kept
 * observations or a measured sub-score. Null when the evidence holds no observations (nothing to re-score).
 */
export function rescoreEvidence(evidence: ScanEvidence, stored: Scores, profile: string): Rescored | null {
  const observations = evidence.observations;
  if (!observations) return null;
  const parts: ScoredPart[] = [scoreObservations(observations)];
  const ran: ProfilePartName[] = ["site"];
  if (observations.availability && observations.availability.total > 0) ran.push("availability");
  for (const part of MEASUREMENT_PARTS) {
    const name = part.name as keyof PartObservations;
    const seen = evidence.parts?.[name];
    const scored =
      seen === undefined
        ? keptPart(part.measures, stored, evidence)
        : (PART_SCORERS[name] as (o: unknown) => ScoredPart)(seen);
    if (seen !== undefined || part.measures.some((n) => typeof stored[n] === "number")) ran.push(part.name);
    for (const n of part.measures) {
      const reason = evidence.unmeasured[n];
      if (scored.scores[n] == null && reason !== undefined) scored.unmeasured[n] = reason;
    }
    parts.push(scored);
  }
  const all = completeScores(parts);
  const failedParts = evidence.checks.filter((c) => c.id === "part.error");
  return {
    scores: fillDerivedScores({ ...all.scores }),
    profile: profile === UNKNOWN_PROFILE ? profileOf(ran) : profile,
    evidence: {
      observations,
      ...(evidence.parts && Object.keys(evidence.parts).length > 0 ? { parts: evidence.parts } : {}),
      checks: [...all.checks, ...failedParts],
      unmeasured: all.unmeasured,
      ...(all.grades ? { grades: all.grades } : {}),
    },
  };
}
