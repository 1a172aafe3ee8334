import { expect, test } from "bun:test";
import { ADVICE } from "../../lib/scores/advice.ts";
import { SCORE_BY_NAME, SUB_SCORE_NAMES } from "../../lib/scores/catalogue.ts";
import { type Priority, type Recommendation, recommend } from "../../lib/scores/recommend.ts";

/** The rule as docs/decisions.md states it, written plainly: ties by name with `localeCompare`, then by priority. */
function byRule(scores: Record<string, number | null>): Recommendation[] {
  const rank: Record<Priority, number> = { high: 0, medium: 1, low: 2 };
  const priority = (s: number): Priority => (s < 50 ? "high" : s < 70 ? "medium" : "low");
  const measured = SUB_SCORE_NAMES.filter((name) => scores[name] != null)
    .map((name) => ({ name, score: scores[name] as number }))
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  const weak = measured.filter((m) => m.score < 70);
  return (weak.length > 0 ? weak : measured.slice(0, 3))
    .slice(0, 10)
    .map(({ name, score }) => ({
      category: name,
      score,
      priority: priority(score),
      message: `${SCORE_BY_NAME.get(name)?.label} is at ${score}: ${ADVICE[name]}`,
    }))
    .sort((a, b) => rank[a.priority] - rank[b.priority] || a.score - b.score);
}

test("recommendations by score follow the rule: weakest first, ties by name, at most ten", () => {
  let seed = 11;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  let ties = 0;
  for (let round = 0; round < 3000; round++) {
    const scores: Record<string, number | null> = {};
    // Few distinct values (many ties), some unmeasured, some rounds all strong.
    const floor = round % 5 === 0 ? 70 : 0;
    for (const name of SUB_SCORE_NAMES) {
      scores[name] = next() < 0.15 ? null : floor + Math.floor(next() * 8) * ((100 - floor) / 8);
    }
    const got = recommend(scores);
    expect(got).toEqual(byRule(scores));
    if (got.some((r, i) => i > 0 && r.score === got[i - 1]?.score)) ties++;
  }
  expect(ties).toBeGreaterThan(1000);
  expect(recommend({})).toEqual([]);
});
