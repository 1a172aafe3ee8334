import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { StringEnum } from "../params/types.ts";
import { ScanEvidenceSchema } from "../scanner/evidence.ts";
import { CATEGORY_NAMES, SCORE_BY_NAME, SCORE_NAMES, SUB_SCORE_NAMES } from "../scores/catalogue.ts";

/**
 * TypeBox schemas of what the query functions return (the `data` of each operation). The HTTP layer turns
 * them into OpenAPI responses; tests check real answers against them, so documentation and code cannot drift.
 */

const Int = (description?: string) => Type.Integer(description ? { description } : {});
const Timestamp = (description = "ISO 8601 with offset, e.g. 2026-03-01T12:00:00+00:00") =>
  Type.String({ description, examples: ["2026-03-01T12:00:00+00:00"] });
const NullableTimestamp = (description?: string) => Type.Union([Timestamp(description), Type.Null()]);
const DateOnly = (description = "Date, YYYY-MM-DD") => Type.String({ description, examples: ["2026-03-01"] });
const ScoreValue = (description = "0..100, one decimal") =>
  Type.Number({ minimum: 0, maximum: 100, description });
const NullableScore = (description = "0..100, one decimal; null when not measured") =>
  Type.Union([ScoreValue(description), Type.Null()]);

export const ScoreNameSchema = StringEnum(SCORE_NAMES, {
  description: "Score name (see the score catalogue)",
});
export const CategorySchema = StringEnum(CATEGORY_NAMES, { description: "Leaderboard category" });

/** Every score of one scan, by name, in catalogue order. */
export const ScoresSchema = Type.Object(
  Object.fromEntries(
    SCORE_NAMES.map((name) => [name, NullableScore(SCORE_BY_NAME.get(name)?.measures)]),
  ) as Record<string, TSchema>,
  { description: "Every score of a scan; null when not measured" },
);

export const UniversitySchema = Type.Object({
  id: Int(),
  domain: Type.String(),
  name: Type.String(),
  country: Type.String({ description: "ISO 3166-1 alpha-2, upper case" }),
  created_at: Type.String({ description: "UTC, YYYY-MM-DD HH:MM:SS", examples: ["2026-03-01 12:00:00"] }),
});

export const UniversityRefSchema = Type.Object({
  id: Int(),
  domain: Type.String(),
  name: Type.String(),
  country: Type.String({ description: "ISO 3166-1 alpha-2, upper case" }),
});

export const PageMetaSchema = Type.Object({
  page: Int("Page number, from 1"),
  limit: Int("Entries per page"),
  total: Int("Entries over all pages"),
});

export const UniversityListSchema = Type.Array(UniversitySchema);

export const UniversityRankingSchema = Type.Object(
  {
    score: Type.Literal("overall_score", { description: "The score ranked by" }),
    profile: Type.String({
      description:
        "The profile of the university's latest scan: it is ranked among universities measured the same way, as `/rankings?profile=` ranks them (docs/scores.md)",
    }),
    rank: Int(
      "Competition rank among the ranked universities of its profile, as `/rankings?profile=` numbers it",
    ),
    total: Int("Universities in that ranking"),
    country: Type.String({ description: "ISO 3166-1 alpha-2, upper case" }),
    country_rank: Int("Competition rank within the country, as `/rankings?country=&profile=` numbers it"),
    country_total: Int("Universities ranked in the country"),
  },
  { description: "Where the university stands by overall score; null when it is not ranked" },
);

export const UniversityDetailSchema = Type.Object({
  ...UniversitySchema.properties,
  scan_count: Int("Completed scans of this university"),
  latest_scan: Type.Union([
    Type.Object({ id: Int("Scan id"), completed_at: Timestamp(), overall_score: NullableScore() }),
    Type.Null(),
  ]),
  ranking: Type.Union([UniversityRankingSchema, Type.Null()]),
});

export const CountryCountsSchema = Type.Array(
  Type.Object({
    country: Type.String({ description: "ISO 3166-1 alpha-2, upper case" }),
    universities: Int("Universities of the country"),
    ranked: Int("Of them, ranked by overall score (a latest completed scan that measures it)"),
  }),
);

export const LatestScoresSchema = Type.Object({
  scan_id: Int(),
  completed_at: Timestamp(),
  ...ScoresSchema.properties,
});

/** The composite scores a ranking row shows of a university's latest completed scan. */
export const RankingCompositesSchema = Type.Object({
  overall_score: NullableScore(),
  webometrics_score: NullableScore(),
  technical_score: NullableScore(),
  research_score: NullableScore(),
  presence_score: NullableScore(),
});

/** The latest completed scan a leaderboard row names. */
export const LatestScanRefSchema = Type.Object({
  scan_id: Int(),
  scan_date: DateOnly("Completion date of the scan"),
});

export const RankingEntrySchema = Type.Object({
  rank: Int("Standard competition rank (1, 2, 2, 4)"),
  ...UniversityRefSchema.properties,
  ...RankingCompositesSchema.properties,
});
export const RankingListSchema = Type.Array(RankingEntrySchema);

export const StatsSchema = Type.Object(
  {
    total_universities: Int(),
    total_scans: Int("Completed scans"),
    average_score: Type.Union([Type.Number(), Type.Null()], {
      description: "Mean overall score of each university's latest completed scan",
    }),
    scanned_universities: Int("Universities with a completed scan"),
    countries: Int("Distinct countries"),
    last_scan_at: NullableTimestamp("Latest completion time of any scan"),
  },
  { additionalProperties: true },
);

export const ComparisonListSchema = Type.Array(
  Type.Object({
    university: Type.Object({ id: Int(), domain: Type.String(), name: Type.String() }),
    scan_date: Type.Union([DateOnly(), Type.Null()]),
    scores: Type.Union([ScoresSchema, Type.Null()]),
  }),
);

export const ExportSchema = Type.Object({
  exported_at: Timestamp(),
  university: UniversitySchema,
  latest_scores: LatestScoresSchema,
  recommendations: Type.Array(
    Type.Object({
      category: StringEnum(SUB_SCORE_NAMES),
      score: ScoreValue(),
      priority: StringEnum(["high", "medium", "low"] as const),
      message: Type.String(),
    }),
  ),
  scan_history: Type.Array(
    Type.Object({ scan_id: Int(), completed_at: Timestamp(), overall_score: NullableScore() }),
  ),
});

export const HealthSchema = Type.Object(
  {
    status: StringEnum(["healthy", "degraded", "unhealthy"] as const),
    version: Type.String({ description: "Service version" }),
    timestamp: Timestamp(),
    checks: Type.Object(
      {
        database: Type.Object({ status: Type.String() }, { additionalProperties: true }),
        disk: Type.Object({ status: Type.String() }, { additionalProperties: true }),
        logs: Type.Object({ status: Type.String() }, { additionalProperties: true }),
        cache: Type.Object({ status: Type.String() }, { additionalProperties: true }),
        writes: Type.Optional(
          Type.Object(
            {
              status: Type.String(),
              failing: Type.Optional(
                Type.Array(
                  Type.Object({
                    what: Type.String({ description: "rate limits, audit log, signature replays, … file" }),
                    cause: Type.String({
                      description: "storage full, storage not writable, deleted, replaced, …",
                    }),
                    since: Type.String(),
                  }),
                ),
              ),
            },
            { additionalProperties: true, description: "Writes that fail now; present in `serve`" },
          ),
        ),
        scanner: Type.Optional(
          Type.Object(
            {
              status: Type.String(),
              running: Type.Integer({ description: "Scans in progress in this server" }),
              backlog: Type.Integer({ description: "Universities due and not yet claimed" }),
              unstored: Type.Optional(
                Type.Integer({
                  description: "Finished scans waiting for the storage to take them (retried)",
                }),
              ),
              last_error: Type.Union([
                Type.Object(
                  { at: Type.String(), domain: Type.Optional(Type.String()), reason: Type.String() },
                  { additionalProperties: false },
                ),
                Type.Null(),
              ]),
            },
            { additionalProperties: true, description: "Present while `serve` scans (--scan-every)" },
          ),
        ),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true },
);

/** What made a scan's scores: its profile and rubric version. */
export const ScanOriginSchema = Type.Object({
  profile: Type.String({
    description:
      "The measurement parts that made its scores, comma-separated (`site,availability,browser`), or `unknown` " +
      "for scores unirank did not measure itself (docs/scores.md)",
    examples: ["site,availability,browser,openalex,wikidata,greenweb"],
  }),
  rubric_version: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
    description:
      "The version of unirank's rubrics that scored it (docs/scanner.md); null when they did not (an import that names none)",
  }),
});

export const ScanStatusSchema = StringEnum(["pending", "running", "completed", "failed"] as const);

export const ScanDetailSchema = Type.Object({
  id: Int("Scan id"),
  university: UniversityRefSchema,
  status: ScanStatusSchema,
  started_at: NullableTimestamp(),
  completed_at: NullableTimestamp(),
  ...ScanOriginSchema.properties,
  scores: Type.Union([ScoresSchema, Type.Null()], { description: "null unless the scan is completed" }),
  evidence: Type.Union([ScanEvidenceSchema, Type.Null()], {
    description:
      "What `unirank scan` observed and the points of every check (docs/scanner.md); an imported scan's evidence is the object its record carried; null without",
  }),
});

export const ScanSummarySchema = Type.Object({
  id: Int("Scan id"),
  university: UniversityRefSchema,
  completed_at: Timestamp(),
  ...ScanOriginSchema.properties,
});

const CheckSideSchema = Type.Union(
  [
    Type.Object({
      points: Type.Number({ description: "Points earned (negative for a modifier rubric's penalty)" }),
      max: Type.Number({ description: "Points possible" }),
      detail: Type.String({ description: "What was observed" }),
      remediation: Type.Union([Type.String(), Type.Null()], {
        description: "How to earn the missing points",
      }),
    }),
    Type.Null(),
  ],
  { description: "The check as this scan scored it; null when this scan has no such check" },
);

export const CheckChangeSchema = Type.Object({
  id: Type.String({ description: "Check id, `<area>.<check>` (docs/scanner.md)" }),
  score: Type.String({ description: "The sub-score the check counts towards" }),
  label: Type.String(),
  a: CheckSideSchema,
  b: CheckSideSchema,
  delta: Type.Union([Type.Number(), Type.Null()], {
    description: "b.points - a.points to one decimal; null when one side lacks the check",
  }),
});

export const ScanDiffSchema = Type.Object({
  a: ScanSummarySchema,
  b: ScanSummarySchema,
  changes: Type.Array(
    Type.Object({
      score: ScoreNameSchema,
      a: NullableScore(),
      b: NullableScore(),
      delta: Type.Union([Type.Number(), Type.Null()], {
        description: "b - a to one decimal; null when one side is not measured",
      }),
    }),
    {
      description:
        "Every score measured on at least one side; by |delta| descending, then catalogue order; null deltas last",
    },
  ),
  summary: Type.Object({
    improved: Int("Changes with delta > 0"),
    declined: Int("Changes with delta < 0"),
    unchanged: Int("Changes with delta = 0"),
    not_comparable: Int("Changes measured on one side only (delta null)"),
  }),
  checks: Type.Union([Type.Array(CheckChangeSchema), Type.Null()], {
    description:
      "The rubric checks whose points or maximum differ, or that one scan lacks: largest |delta| first, " +
      "one-sided checks last, ties in scan b's order. null unless both scans carry per-check evidence " +
      "(scans made by `unirank scan`)",
  }),
});

export const LeaderboardEntrySchema = Type.Object({
  rank: Int("Standard competition rank (1, 2, 2, 4)"),
  university: UniversityRefSchema,
  score: ScoreValue(),
  ...LatestScanRefSchema.properties,
});
export const LeaderboardSchema = Type.Array(LeaderboardEntrySchema);

/** What a ranked list says of profiles (docs/scores.md). */
export const ProfileMetaSchema = {
  profile: Type.Union([Type.String(), Type.Null()], {
    description:
      "The profile ranked (docs/scores.md): by default the main profile for overall and composites; null when " +
      "every profile is ranked (sub-scores, or `profile=all`)",
  }),
  profiles: Type.Record(Type.String(), Type.Integer(), {
    description: "Universities per profile of their latest completed scan, the main profile first",
  }),
};

export const LeaderboardMetaSchema = Type.Object({
  category: CategorySchema,
  score: ScoreNameSchema,
  limit: Int(),
  total: Int("Universities ranked in this category"),
  ...ProfileMetaSchema,
});

/** v2 rankings' meta: the page, and the profile ranked with the universities per profile. */
export const RankingMetaSchema = Type.Object({
  page: Int("Page number, from 1"),
  limit: Int("Entries per page"),
  total: Int("Entries over all pages"),
  ...ProfileMetaSchema,
});

const ScanPoint = Type.Object({ scan_id: Int(), completed_at: Timestamp(), score: ScoreValue() });

export const RegressionListSchema = Type.Array(
  Type.Object({
    university: UniversityRefSchema,
    category: CategorySchema,
    previous: ScanPoint,
    current: ScanPoint,
    drop: Type.Number({ minimum: 0, description: "previous - current, one decimal" }),
  }),
);

export const RegressionsMetaSchema = Type.Object({
  category: CategorySchema,
  score: ScoreNameSchema,
  days: Int(),
  min_drop: Type.Number(),
  limit: Int(),
  since: Timestamp("Start of the window: now - days"),
  total: Int("Regressions found (before limit)"),
});

export type UniversityRef = Static<typeof UniversityRefSchema>;
export type RankingComposites = Static<typeof RankingCompositesSchema>;
export type LatestScanRef = Static<typeof LatestScanRefSchema>;
export type RankingEntry = Static<typeof RankingEntrySchema>;
export type LeaderboardEntry = Static<typeof LeaderboardEntrySchema>;
export type LeaderboardMeta = Static<typeof LeaderboardMetaSchema>;
