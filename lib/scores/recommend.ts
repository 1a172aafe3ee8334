import { ADVICE } from "./advice.ts";
import { SCORE_BY_NAME, SUB_SCORE_NAMES, type SubScoreName } from "./catalogue.ts";
import type { CheckPoints } from "./check-points.ts";

export type Priority = "high" | "medium" | "low";

export interface Recommendation {
  category: SubScoreName;
  score: number;
  priority: Priority;
  message: string;
}

type Scores = Partial<Record<string, number | null>>;

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
