import type { Static } from "@sinclair/typebox";
import type {
  DistributionBin,
  DistributionMetaSchema,
  UniversityDetail,
  UniversityRanking,
} from "../lib/index.ts";

/** The v2 answers the explorer reads, typed by the core's own types (imported as types only: no code). */
export type {
  CheckChange,
  ComparisonEntry,
  CountryCount,
  LeaderboardEntry,
  Methodology,
  PageMeta,
  RankingEntry,
  RankingMeta,
  Regression,
  ScanDetail,
  ScanDiff,
  ScanHistoryEntry,
  University,
  UniversityRanking,
} from "../lib/index.ts";
export type { CheckPoints } from "../lib/scores/check-points.ts";

/** `/universities/{id}` in v2: the core's detail and the university's overall rank. */
export type UniversityV2 = UniversityDetail & { ranking: UniversityRanking | null };
export type { DistributionBin };
export type DistributionMeta = Static<typeof DistributionMetaSchema>;
