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
  if (fromChecks.length === 0) return recommendByScore(scores);
  const covered = new Set(fromChecks.map((r) => r.category));
  return [...fromChecks, ...recommendByScore(scores).filter((r) => !covered.has(r.category))].slice(0, 10);
}

/** Each sub-score's place among the others by name, as `localeCompare` puts them: a tie of scores goes by name. */
const NAME_PLACE = new Map(
  [...SUB_SCORE_NAMES].sort((a, b) => a.localeCompare(b)).map((name, place) => [name, place]),
);
/** Each sub-score's message around its score: `<label> is at ` and `: <advice>`. */
const MESSAGE_HEAD = new Map(
  SUB_SCORE_NAMES.map((name) => [name, `${SCORE_BY_NAME.get(name)?.label} is at `]),
);
const MESSAGE_TAIL = new Map(SUB_SCORE_NAMES.map((name) => [name, `: ${ADVICE[name]}`]));

/** Each sub-score's place by name (`NAME_PLACE`), by its index in `SUB_SCORE_NAMES`. */
const PLACES = Int32Array.from(SUB_SCORE_NAMES, (name) => NAME_PLACE.get(name) as number);
/** The measured sub-scores while they are put in order: their indexes and scores (synchronous, so shared). */
const ORDER = new Int32Array(SUB_SCORE_NAMES.length);
const VALUES = new Float64Array(SUB_SCORE_NAMES.length);

function recommendByScore(scores: Scores): Recommendation[] {
  let n = 0;
  for (let i = 0; i < SUB_SCORE_NAMES.length; i++) {
    const score = scores[SUB_SCORE_NAMES[i] as SubScoreName];
    if (score == null) continue;
    // Inserted after every lower score, and after an equal one whose name comes first (34 at most).
    let at = n++;
    while (at > 0) {
      const before = VALUES[at - 1] as number;
      const j = ORDER[at - 1] as number;
      if (before < score || (before === score && (PLACES[j] as number) < (PLACES[i] as number))) break;
      ORDER[at] = j;
      VALUES[at] = before;
      at--;
    }
    ORDER[at] = i;
    VALUES[at] = score;
  }
  let weak = 0;
  while (weak < n && (VALUES[weak] as number) < 70) weak++;
  const chosen = Math.min(10, weak > 0 ? weak : Math.min(3, n));
  // In order of score, so of priority too: a lower score never has a lower priority.
  const out: Recommendation[] = [];
  for (let k = 0; k < chosen; k++) {
    const name = SUB_SCORE_NAMES[ORDER[k] as number] as SubScoreName;
    const score = VALUES[k] as number;
    out.push({
      category: name,
      score,
      priority: priorityOf(score),
      message: `${MESSAGE_HEAD.get(name)}${score}${MESSAGE_TAIL.get(name)}`,
    });
  }
  return out;
}
