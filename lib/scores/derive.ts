import { COMPOSITE_SCORES, OVERALL_WEIGHTS } from "./catalogue.ts";

export type ScoreMap = Record<string, number | null | undefined>;

const WEIGHTS = Object.entries(OVERALL_WEIGHTS);

/** Rounds to one decimal place. */
export const round1 = (n: number): number => Math.round(n * 10) / 10;

/** Mean of the scores `names` present in `scores`, one decimal; null when none is. */
function mean(scores: ScoreMap, names: readonly string[]): number | null {
  let sum = 0;
  let count = 0;
  for (const name of names) {
    const v = scores[name];
    if (typeof v === "number") {
      sum += v;
      count++;
    }
  }
  return count === 0 ? null : round1(sum / count);
}

/**
 * Fills in the four composites and `overall_score` from the sub-scores, as the catalogue says.
 * A composite given explicitly is kept; one not given is derived.
 */
export function deriveScores(scores: ScoreMap): ScoreMap {
  return fillDerivedScores({ ...scores });
}

/** `deriveScores` in place: fills the missing composites and `overall_score` of `out` and returns it. */
export function fillDerivedScores<T extends ScoreMap>(out: T): T {
  for (const composite of COMPOSITE_SCORES) {
    if (out[composite.name] == null) (out as ScoreMap)[composite.name] = mean(out, composite.from ?? []);
  }
  if (out.overall_score == null) {
    let total = 0;
    let weight = 0;
    for (const [name, w] of WEIGHTS) {
      const v = out[name];
      if (typeof v === "number") {
        total += v * w;
        weight += w;
      }
    }
    (out as ScoreMap).overall_score = weight > 0 ? round1(total / weight) : null;
  }
  return out;
}
