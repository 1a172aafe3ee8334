import { type Static, Type } from "@sinclair/typebox";
import { sql } from "kysely";
import { capabilitiesOf } from "../db/capabilities.ts";
import { generationMemo } from "../db/generation-memo.ts";
import type { DB } from "../schema/database.ts";
import { RANKED_SCORES, type RankedScoreName } from "../scores/catalogue.ts";
import { round1 } from "../scores/derive.ts";
import { chooseProfile } from "./profiles.ts";
import { type Ranking, rankingOf, scoreAt, windowOf } from "./rank.ts";
import { ProfileMetaSchema } from "./response-schemas.ts";
import { toNumber } from "./shapes.ts";

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
 * are those that ranking would hold (one profile for overall and the composites, docs/scores.md). Taken from that
 * ranking as it is kept in memory (`rankingOf`: the measured scores, sorted): a bin's count from two binary
 * searches, the median from the middle, the mean from a sum kept with the ranking; the unmeasured from the
 * profile census (every country) or a count of the country's latest scans kept per data generation. Before, every
 * request read and sorted the scores of every latest scan (docs/performance.md).
 */
export async function scoreDistribution(db: DB, input: ScoreDistributionInput = {}) {
  const score = input.score ?? "overall_score";
  if (!RANKED_SCORES.includes(score)) throw new Error(`not a ranked score: ${score}`);
  const bins = input.bins ?? 10;
  const country = input.country ? input.country.toUpperCase() : null;
  const choice = await chooseProfile(db, score, input.profile);
  const ranking = await rankingOf(db, score, country ?? undefined, choice.profile);
  // The latest scans of every country are the profile census the choice carries; a country's are counted.
  const scanned =
    country === null
      ? choice.profile === null
        ? Object.values(choice.profiles).reduce((a, b) => a + b, 0)
        : (choice.profiles[choice.profile] ?? 0)
      : await latestScanCount(db, `${country}\u0000${choice.profile ?? ""}`);
  const bounds = binBounds(bins);
  const n = ranking.ids.length;
  // Scores at or above `bound`: the ranking's first positions (its scores descend).
  const atLeast = (bound: number) => windowOf(ranking, bound, undefined)[1];
  const data: DistributionBin[] = [];
  for (let i = 0; i < bins; i++) {
    // As `binOf`: bin i holds what is at or above its lower bound and not at or above the next one's; the first
    // also what is below 0, the last what is above 100.
    const from = i === 0 ? n : atLeast(bounds[i] as number);
    const next = i === bins - 1 ? 0 : atLeast(bounds[i + 1] as number);
    data.push({ from: bounds[i] as number, to: bounds[i + 1] as number, count: from - next });
  }
  // The k-th least score is at position n - 1 - k.
  const least = (k: number) => scoreAt(ranking, n - 1 - k);
  const mid = n >> 1;
  const median = n === 0 ? null : round1(n % 2 ? least(mid) : (least(mid - 1) + least(mid)) / 2);
  const mean = n === 0 ? null : round1(ascendingSum(ranking) / n);
  return {
    data,
    // The count and the ranking are kept per generation each: a write between the two reads cannot make it negative.
    meta: {
      score,
      country,
      bins,
      measured: n,
      not_measured: Math.max(0, scanned - n),
      mean,
      median,
      ...choice,
    },
  };
}

const sums = new WeakMap<Ranking, number>();

/** The sum of a ranking's scores added from the least up, as a sort and a sum of them would; kept per ranking. */
function ascendingSum(ranking: Ranking): number {
  let sum = sums.get(ranking);
  if (sum === undefined) {
    sum = 0;
    for (let i = ranking.ids.length - 1; i >= 0; i--) sum += scoreAt(ranking, i);
    sums.set(ranking, sum);
  }
  return sum;
}

/**
 * The latest completed scans of a country and profile (`country\u0000profile`, the profile empty for all), measured
 * or not, counted once per data generation by the country's index (a few ms at 100,000).
 */
const latestScanCount = generationMemo(async (db: DB, key: string): Promise<number> => {
  const [country, profile] = key.split("\u0000") as [string, string];
  const from = capabilitiesOf(db).indexHints
    ? sql`latest_scans indexed by latest_scans_country`
    : sql`latest_scans`;
  const ofProfile = profile !== "" ? sql` and profile = ${profile}` : sql``;
  const row = await sql<{ n: number | string }>`select count(*) as n from ${from}
    where country = ${country}${ofProfile}`.execute(db);
  return toNumber(row.rows[0]?.n ?? 0);
});

const round2 = (x: number) => Math.round(x * 100) / 100;
