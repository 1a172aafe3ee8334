import { type Static, Type } from "@sinclair/typebox";
import type { DB } from "../schema/database.ts";
import { RANKED_SCORES, type RankedScoreName } from "../scores/catalogue.ts";
import { round1 } from "../scores/derive.ts";
import { chooseProfile } from "./profiles.ts";
import { ProfileMetaSchema } from "./response-schemas.ts";

export interface ScoreDistributionInput {
  score?: RankedScoreName;
  country?: string;
  bins?: number;
  /** As for rankings: the main profile for overall and composites by default, `all` for every profile. */
  profile?: string;
}

export interface DistributionBin {
  /** Lower bound, included. */
  from: number;
  /** Upper bound, excluded, except 100 in the last bin. */
  to: number;
  count: number;
}

export const DistributionSchema = Type.Array(
  Type.Object({
    from: Type.Number({ description: "Lower bound, included" }),
    to: Type.Number({ description: "Upper bound, excluded (the last bin includes 100)" }),
    count: Type.Integer({ description: "Universities whose score falls in the bin" }),
  }),
);

export const DistributionMetaSchema = Type.Object({
  score: Type.String({ description: "The score binned" }),
  country: Type.Union([Type.String(), Type.Null()]),
  bins: Type.Integer(),
  measured: Type.Integer({ description: "Universities with the score measured (the sum of the counts)" }),
  not_measured: Type.Integer({
    description: "Universities with a completed scan but no value for the score",
  }),
  mean: Type.Union([Type.Number(), Type.Null()], { description: "Mean, one decimal; null when none" }),
  median: Type.Union([Type.Number(), Type.Null()], { description: "Median, one decimal; null when none" }),
  ...ProfileMetaSchema,
});
export type DistributionMeta = Static<typeof DistributionMetaSchema>;

/**
 * The bounds of `bins` equal bins over 0..100 as published: two decimals (`[9.68, 12.9)` for 31 bins). Bin `i` runs
 * from `bounds[i]` (included) to `bounds[i + 1]` (excluded; the last includes 100).
 */
export function binBounds(bins: number): number[] {
  return Array.from({ length: bins + 1 }, (_, i) => round2((i * 100) / bins));
}

/**
 * Which bin a score falls in, against the bounds as published (`binBounds`): a 12.9 is in `[12.9, 16.13)`, not in
 * `[9.68, 12.9)` where the unrounded bound 12.903… would put it. 100 itself is in the last bin.
 */
export function binOf(value: number, bounds: readonly number[]): number {
  const bins = bounds.length - 1;
  let i = Math.max(0, Math.min(bins - 1, Math.floor((value * bins) / 100)));
  while (i > 0 && value < (bounds[i] as number)) i--;
  while (i < bins - 1 && value >= (bounds[i + 1] as number)) i++;
  return i;
}

/**
 * How the latest completed scans of universities (optionally of one country) spread over `bins` equal bins of
 * one score, with the mean and median. Scores are those a ranking or leaderboard can sort by; the universities
 * are those that ranking would hold (one profile for overall and the composites, docs/scores.md).
 */
export async function scoreDistribution(db: DB, input: ScoreDistributionInput = {}) {
  const score = input.score ?? "overall_score";
  if (!RANKED_SCORES.includes(score)) throw new Error(`not a ranked score: ${score}`);
  const bins = input.bins ?? 10;
  const country = input.country ? input.country.toUpperCase() : null;
  const choice = await chooseProfile(db, score, input.profile);
  let query = db.selectFrom("latest_scans").select(`${score} as v` as "overall_score as v");
  if (country) query = query.where("country", "=", country);
  if (choice.profile !== null) query = query.where("profile", "=", choice.profile);
  const rows = await query.execute();
  const bounds = binBounds(bins);
  const counts = new Array<number>(bins).fill(0);
  const values: number[] = [];
  for (const row of rows) {
    if (row.v == null) continue;
    const v = Number(row.v);
    values.push(v);
    const bin = binOf(v, bounds);
    counts[bin] = (counts[bin] ?? 0) + 1;
  }
  values.sort((a, b) => a - b);
  const n = values.length;
  const mid = n >> 1;
  const median =
    n === 0 ? null : round1(n % 2 ? (values[mid] ?? 0) : ((values[mid - 1] ?? 0) + (values[mid] ?? 0)) / 2);
  const mean = n === 0 ? null : round1(values.reduce((a, b) => a + b, 0) / n);
  const data: DistributionBin[] = counts.map((count, i) => ({
    from: bounds[i] as number,
    to: bounds[i + 1] as number,
    count,
  }));
  return {
    data,
    meta: { score, country, bins, measured: n, not_measured: rows.length - n, mean, median, ...choice },
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
