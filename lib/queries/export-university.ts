import { notFound } from "../errors.ts";
import type { CheckPoints } from "../scanner/check.ts";
import type { DB } from "../schema/database.ts";
import { ADVICE } from "../scores/advice.ts";
import { SCORE_BY_NAME, SUB_SCORE_NAMES, type SubScoreName } from "../scores/catalogue.ts";
import { type Clock, isoTimestamp, systemClock } from "../time/format.ts";
import { findUniversity } from "./get-university.ts";
import { scanEvidence } from "./scan-evidence.ts";
import { type Scores, scoresOfScans, type University } from "./shapes.ts";
import { latestScanOf } from "./university-scores.ts";

export type Priority = "high" | "medium" | "low";

export interface Recommendation {
  category: SubScoreName;
  score: number;
  priority: Priority;
  message: string;
}

export interface UniversityExport {
  exported_at: string;
  university: University;
  latest_scores: { scan_id: number; completed_at: string } & Scores;
  recommendations: Recommendation[];
  scan_history: { scan_id: number; completed_at: string; overall_score: number | null }[];
}

const PRIORITY_ORDER: Record<Priority, number> = { high: 0, medium: 1, low: 2 };
const priorityOf = (score: number): Priority => (score < 50 ? "high" : score < 70 ? "medium" : "low");

/**
 * Recommendations: first the failing checks of the scan's evidence (most points lost first, each with its
 * remediation), then the weakest measured sub-scores: every one below 70, or the three lowest when none is;
 * ordered by priority, then score ascending, then name. At most ten.
 */
export function recommend(scores: Scores, checks: readonly CheckPoints[] = []): Recommendation[] {
  const fromChecks = checks
    .filter((c) => c.points < c.max && c.remediation && typeof scores[c.score] === "number")
    .sort((a, b) => b.max - b.points - (a.max - a.points) || a.id.localeCompare(b.id))
    .slice(0, 10)
    .map((c) => {
      const score = scores[c.score] as number;
      return {
        category: c.score as SubScoreName,
        score,
        priority: priorityOf(score),
        message: `${c.label}: ${c.detail}. ${c.remediation}`,
      };
    });
  const covered = new Set(fromChecks.map((r) => r.category));
  return [...fromChecks, ...recommendByScore(scores).filter((r) => !covered.has(r.category))].slice(0, 10);
}

function recommendByScore(scores: Scores): Recommendation[] {
  const measured = SUB_SCORE_NAMES.flatMap((name) => {
    const score = scores[name];
    return score == null ? [] : [{ name, score }];
  }).sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  const weak = measured.filter((m) => m.score < 70);
  const chosen = (weak.length > 0 ? weak : measured.slice(0, 3)).slice(0, 10);
  return chosen
    .map(({ name, score }) => ({
      category: name,
      score,
      priority: priorityOf(score),
      message: `${SCORE_BY_NAME.get(name)?.label} is at ${score}: ${ADVICE[name]}`,
    }))
    .sort((a, b) => PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority] || a.score - b.score);
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
