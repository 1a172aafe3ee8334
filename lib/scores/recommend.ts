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

/** A recommendation's priority by its score. */
export const priorityOf = (score: number): Priority => (score < 50 ? "high" : score < 70 ? "medium" : "low");

/**
 * Recommendations: first the failing checks of the scan's evidence (most points lost first, each with its
 * remediation), then the weakest measured sub-scores: every one below 70, or the three lowest when none is;
 * ordered by priority, then score ascending, then name. At most ten.
 */
export const recommend = (scores: Scores, checks: readonly CheckPoints[] = []): Recommendation[] =>
  afterCheckRecommendations(scores, checkRecommendations(scores, checks));

/** `recommend`'s answer from its check recommendations (`checkRecommendations`): the weakest sub-scores follow. */
export function afterCheckRecommendations(scores: Scores, fromChecks: Recommendation[]): Recommendation[] {
  if (fromChecks.length === 0) return recommendByScore(scores);
  const covered = new Set(fromChecks.map((r) => r.category));
  return [...fromChecks, ...recommendByScore(scores).filter((r) => !covered.has(r.category))].slice(0, 10);
}

/**
 * The recommendations `recommend` makes from failing checks (most points lost first), before any by score: when
 * there are none, its recommendations are the weakest sub-scores alone (`weakestSubScores`).
 */
export function checkRecommendations(scores: Scores, checks: readonly CheckPoints[]): Recommendation[] {
  return checks
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

/** A recommendation by score's message around its score: `<label> is at ` and `: <advice>`. */
export const messageAround = (name: SubScoreName): readonly [string, string] => [
  MESSAGE_HEAD.get(name) as string,
  MESSAGE_TAIL.get(name) as string,
];

/** Each sub-score's place by name (`NAME_PLACE`), by its index in `SUB_SCORE_NAMES`. */
const PLACES = Int32Array.from(SUB_SCORE_NAMES, (name) => NAME_PLACE.get(name) as number);
/** The sub-scores of a `Scores` object by index (NaN where not measured), and their order (synchronous, so shared). */
const SCORES = new Float64Array(SUB_SCORE_NAMES.length);
const ORDER = new Int32Array(SUB_SCORE_NAMES.length);

/**
 * The weakest measured sub-scores, as `recommend` picks them by score: every one below 70, or the three lowest when
 * none is, at most ten; lowest first, a tie by name. `scores` holds each sub-score by its index in
 * `SUB_SCORE_NAMES` (NaN where not measured). `order` gets the measured ones' indexes in that order; the number of
 * them chosen, which come first, is returned.
 */
export function weakestSubScores(scores: Float64Array, order: Int32Array): number {
  let n = 0;
  for (let i = 0; i < SUB_SCORE_NAMES.length; i++) {
    const score = scores[i] as number;
    if (Number.isNaN(score)) continue; // not measured
    // Inserted after every lower score, and after an equal one whose name comes first (34 at most).
    let at = n++;
    while (at > 0) {
      const j = order[at - 1] as number;
      const before = scores[j] as number;
      if (before < score || (before === score && (PLACES[j] as number) < (PLACES[i] as number))) break;
      order[at] = j;
      at--;
    }
    order[at] = i;
  }
  let weak = 0;
  while (weak < n && (scores[order[weak] as number] as number) < 70) weak++;
  return Math.min(10, weak > 0 ? weak : Math.min(3, n));
}

function recommendByScore(scores: Scores): Recommendation[] {
  for (let i = 0; i < SUB_SCORE_NAMES.length; i++)
    SCORES[i] = scores[SUB_SCORE_NAMES[i] as SubScoreName] ?? Number.NaN;
  const chosen = weakestSubScores(SCORES, ORDER);
  // In order of score, so of priority too: a lower score never has a lower priority.
  const out: Recommendation[] = [];
  for (let k = 0; k < chosen; k++) {
    const name = SUB_SCORE_NAMES[ORDER[k] as number] as SubScoreName;
    const score = SCORES[ORDER[k] as number] as number;
    out.push({
      category: name,
      score,
      priority: priorityOf(score),
      message: `${MESSAGE_HEAD.get(name)}${score}${MESSAGE_TAIL.get(name)}`,
    });
  }
  return out;
}
