import { type Static, Type } from "@sinclair/typebox";
import { CATEGORY_NAMES, RANKED_SCORES, RANKING_SORTS } from "../scores/catalogue.ts";
import { PROFILE_PART_NAMES } from "../scores/profile.ts";
import { Country, Id, Limit, Page, Search, StringEnum } from "./types.ts";

/** Parameter schemas of every operation: they validate requests and describe them in OpenAPI and /schema. */

export const IdParams = Type.Object({ id: Id("University id") });
export type IdParams = Static<typeof IdParams>;

export const ScanIdParams = Type.Object({ id: Id("Scan id") });

export const UNIVERSITY_SORTS = ["name", "domain", "country", "created_at"] as const;
export const ORDERS = ["asc", "desc"] as const;

export const ListUniversitiesParams = Type.Object({
  page: Type.Optional(Page()),
  limit: Type.Optional(Limit(20)),
  search: Type.Optional(Search()),
  country: Type.Optional(Country()),
  sort: Type.Optional(StringEnum(UNIVERSITY_SORTS, { default: "name", description: "Sort key" })),
  order: Type.Optional(StringEnum(ORDERS, { default: "asc", description: "Sort order" })),
});
export type ListUniversitiesParams = Static<typeof ListUniversitiesParams>;

const PART = `(?:${PROFILE_PART_NAMES.join("|")})`;

/** `profile`: which profile a ranked list holds (docs/scores.md). */
export const ProfileParam = Type.String({
  pattern: `^(?:all|unknown|${PART}(?:,${PART})*)$`,
  description:
    "The profile to rank: the measurement parts of the scans, comma-separated (`site,browser`), `unknown`, or " +
    "`all` for every profile. Default: the main profile (the most universities') for overall and composites, " +
    "every profile for a sub-score",
  examples: ["site,availability,browser", "all"],
});

const Score = (description: string) => Type.Number({ minimum: 0, maximum: 100, description });

export const RankingsParams = Type.Object({
  page: Type.Optional(Page()),
  limit: Type.Optional(Limit(50)),
  country: Type.Optional(Country()),
  min_score: Type.Optional(Score("Lowest score in the window (inclusive); ranks are not renumbered")),
  max_score: Type.Optional(Score("Highest score in the window (inclusive); ranks are not renumbered")),
  sort: Type.Optional(
    StringEnum(Object.keys(RANKING_SORTS) as (keyof typeof RANKING_SORTS)[], {
      default: "overall",
      description: "Score to rank by",
    }),
  ),
  profile: Type.Optional(ProfileParam),
});
export type RankingsParams = Static<typeof RankingsParams>;

export const CompareParams = Type.Object({
  ids: Type.String({
    pattern: "^[0-9]+(,[0-9]+)*$",
    description: "2 to 10 distinct university ids, comma-separated; results keep this order",
    examples: ["1,2,3"],
  }),
});
export type CompareParams = Static<typeof CompareParams>;

export const ScanDiffParams = Type.Object({
  a: Id("Scan id of the earlier side"),
  b: Id("Scan id of the later side; delta = b - a"),
});
export type ScanDiffParams = Static<typeof ScanDiffParams>;

export const CategoryParams = Type.Object({
  category: StringEnum(CATEGORY_NAMES, { description: "Leaderboard category" }),
});

export const LeaderboardParams = Type.Object({
  limit: Type.Optional(Limit(10)),
  profile: Type.Optional(ProfileParam),
});
export type LeaderboardParams = Static<typeof LeaderboardParams>;

export const RegressionsParams = Type.Object({
  days: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 365,
      default: 30,
      description: "Window in days for the latest scan",
    }),
  ),
  min_drop: Type.Optional(
    Type.Number({ minimum: 0, maximum: 100, default: 5, description: "Smallest drop reported, in points" }),
  ),
  category: Type.Optional(StringEnum(CATEGORY_NAMES, { default: "overall", description: "Score category" })),
  limit: Type.Optional(Limit(20)),
});
export type RegressionsParams = Static<typeof RegressionsParams>;

export const ScanHistoryParams = Type.Object({
  page: Type.Optional(Page()),
  limit: Type.Optional(Limit(100, 500)),
});
export type ScanHistoryParams = Static<typeof ScanHistoryParams>;

export const DistributionParams = Type.Object({
  score: Type.Optional(
    StringEnum(RANKED_SCORES, {
      default: "overall_score",
      description: "Score to bin: one a ranking or leaderboard sorts by",
    }),
  ),
  country: Type.Optional(Country()),
  bins: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 10, description: "Equal bins over 0..100" }),
  ),
  profile: Type.Optional(ProfileParam),
});
export type DistributionParams = Static<typeof DistributionParams>;
