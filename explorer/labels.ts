import {
  CATEGORIES,
  CATEGORY_NAMES,
  type Category,
  COMPOSITE_SCORES,
  RANKING_SORTS,
  type RankingSort,
  SCORE_BY_NAME,
} from "../lib/scores/catalogue.ts";

/** Human labels, all from the score catalogue: the page never shows a score's or category's key. */

export const scoreLabel = (name: string): string => SCORE_BY_NAME.get(name)?.label ?? name;

export const isCategory = (c: string | null): c is Category => CATEGORY_NAMES.includes(c as Category);
/** A leaderboard category by the score it ranks ("ssl" → "TLS certificate"). */
export const categoryLabel = (c: Category): string => scoreLabel(CATEGORIES[c]);

export const RANKING_SORT_NAMES = Object.keys(RANKING_SORTS) as RankingSort[];
export const isRankingSort = (s: string | null): s is RankingSort =>
  RANKING_SORT_NAMES.includes(s as RankingSort);
export const sortLabel = (s: RankingSort): string => scoreLabel(RANKING_SORTS[s]);

/** Overall and the four composites: what the history and compare charts draw. */
export const HEADLINE_SCORES = ["overall_score", ...COMPOSITE_SCORES.map((c) => c.name)];

/** "overall score", "TLS certificate score": a label inside a sentence (acronyms keep their case). */
export const inSentence = (name: string): string => {
  const label = scoreLabel(name);
  const first = label.split(" ")[0] ?? "";
  const lowered = first === first.toUpperCase() ? label : label.charAt(0).toLowerCase() + label.slice(1);
  return `${lowered} score`;
};
