import { notFound } from "../errors.ts";
import type { DB } from "../schema/database.ts";
import type { CheckPoints } from "../scores/check-points.ts";
import { checkRecommendations, type Recommendation, recommend } from "../scores/recommend.ts";
import { type Clock, isoTimestamp, systemClock } from "../time/format.ts";
import { findUniversity } from "./get-university.ts";
import { scanEvidence } from "./scan-evidence.ts";
import { type Scores, scoresOfScans, type University } from "./shapes.ts";
import { latestScanOf } from "./university-scores.ts";

export { type Priority, type Recommendation, recommend } from "../scores/recommend.ts";

export interface UniversityExport {
  exported_at: string;
  university: University;
  latest_scores: { scan_id: number; completed_at: string } & Scores;
  recommendations: Recommendation[];
  scan_history: { scan_id: number; completed_at: string; overall_score: number | null }[];
}

/** The well-formed checks of a scan's evidence (an imported scan's evidence may hold anything). */
function evidenceChecks(evidence: Record<string, unknown> | null): CheckPoints[] {
  const checks = evidence?.checks;
  if (!Array.isArray(checks)) return [];
  return checks.filter(
    (c): c is CheckPoints =>
      typeof c === "object" &&
      c !== null &&
      typeof c.id === "string" &&
      typeof c.score === "string" &&
      typeof c.label === "string" &&
      typeof c.detail === "string" &&
      typeof c.points === "number" &&
      typeof c.max === "number" &&
      (typeof c.remediation === "string" || c.remediation === null),
  );
}

/**
 * The part of an export's recommendations made from its evidence's failing checks: when it is empty, they are the
 * weakest sub-scores alone (`weakestSubScores`); else `afterCheckRecommendations` of it.
 */
export const exportCheckRecommendations = (
  scores: Partial<Record<string, number | null>>,
  evidence: Record<string, unknown> | null,
): Recommendation[] => checkRecommendations(scores, evidenceChecks(evidence));

/** Everything unirank knows about one university; 404 for unknown or never-scanned universities. */
export async function exportUniversity(
  db: DB,
  id: number,
  options: { clock?: Clock } = {},
): Promise<UniversityExport> {
  const university = await findUniversity(db, id);
  const latest = await latestScanOf(db, id);
  if (!latest) throw notFound(`University ${id} has no completed scan`);
  const scanId = Number(latest.scan_id);
  const [scores, history, evidence] = await Promise.all([
    scoresOfScans(db, [scanId]),
    db
      .selectFrom("scans")
      .select(["id", "completed_at", "overall_score"])
      .where("university_id", "=", id)
      .where("status", "=", "completed")
      .orderBy("completed_at", "desc")
      .orderBy("id", "desc")
      .execute(),
    scanEvidence(db, scanId),
  ]);
  const latestScores = scores.get(scanId)!;
  return {
    exported_at: isoTimestamp((options.clock ?? systemClock)()),
    university,
    latest_scores: { scan_id: scanId, completed_at: latest.completed_at, ...latestScores },
    recommendations: recommend(latestScores, evidenceChecks(evidence)),
    scan_history: history.map((h) => ({
      scan_id: Number(h.id),
      completed_at: h.completed_at ?? "",
      overall_score: h.overall_score == null ? null : Number(h.overall_score),
    })),
  };
}
