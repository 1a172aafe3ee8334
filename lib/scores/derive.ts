import { COMPOSITE_SCORES, OVERALL_WEIGHTS } from "./catalogue.ts";

export type ScoreMap = Record<string, number | null | undefined>;

/** Rounds to one decimal place. */
export const round1 = (n: number): number => Math.round(n * 10) / 10;

function mean(values: (number | null | undefined)[]): number | null {
  const present = values.filter((v): v is number => typeof v === "number");
  if (present.length === 0) return null;
  return round1(present.reduce((a, b) => a + b, 0) / present.length);
}

/**
 * Fills in the four composites and `overall_score` from the sub-scores, as the catalogue says.
 * A composite given explicitly is kept; one not given is derived.
 */
export function deriveScores(scores: ScoreMap): ScoreMap {
  const out: ScoreMap = { ...scores };
  for (const composite of COMPOSITE_SCORES) {
    if (out[composite.name] == null) out[composite.name] = mean((composite.from ?? []).map((n) => out[n]));
  }
  if (out.overall_score == null) {
    let total = 0;
    let weight = 0;
    for (const [name, w] of Object.entries(OVERALL_WEIGHTS)) {
      const v = out[name];
      if (typeof v === "number") {
        total += v * w;
        weight += w;
      }
    }
    out.overall_score = weight > 0 ? round1(total / weight) : null;
  }
  return out;
}
