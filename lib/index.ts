/**
 * unirank's public core (`import … from "unirank"`): the schema and its migrations, the query functions and
 * their parameter and response schemas, the score catalogue, import, storing scans and the scan scheduler, API
 * keys, the audit log and webhook receivers. Runtime-neutral: no file system, DNS or sockets (those are in
 * `unirank/node`); the scanner's pure side is `unirank/scanner`, the demo data generator `unirank/seed`, the
 * receiving side of webhooks `unirank/webhooks`. Every name is listed on purpose (docs/embedding.md); what is not
 * listed is internal and may change.
 */

// Key material in text (paths, parameters, messages) replaced before it is logged or echoed.
export { mentionsKeyPrefix, redactKeyMaterial } from "./access/api-key-format.ts";
// Access control: API keys, rate limits, client addresses, request signatures, the audit log.
export {
  type ApiKeyInfo,
  type AuthenticatedKey,
  authenticate,
  type CreatedKey,
  type CreateKeyInput,
  createKey,
  DEFAULT_KEY_RATE_LIMIT,
  listKeys,
  revokeKey,
} from "./access/api-keys.ts";
export {
  type AuditLog,
  type AuditLogOptions,
  type AuditRecord,
  createAuditLog,
  DEFAULT_AUDIT_RETENTION_DAYS,
  pruneAudit,
  type ReadAuditOptions,
  readAudit,
} from "./access/audit-log.ts";
export { clientGroup, resolveClientIp, trustedProxies } from "./access/client-ip.ts";
export { createMemoryRateLimiter } from "./access/memory-rate-limiter.ts";
export { pruneAccessState } from "./access/prune-access.ts";
export { type RateLimitBatches, rateLimitBatches } from "./access/rate-limit-batches.ts";
export {
  consumeRateLimit,
  consumeRateLimits,
  RATE_WINDOW_SECONDS,
  type RateLimitDecision,
} from "./access/rate-limiter.ts";
export {
  SIGNATURE_SKEW_SECONDS,
  signRequest,
  type VerifySignatureInput,
  verifyRequestSignature,
} from "./access/request-signature.ts";
export {
  capabilitiesOf,
  type DatabaseCapabilities,
  UnsupportedDatabaseError,
} from "./db/capabilities.ts";
export { type DirectRead, registerDirectRead } from "./db/direct-reads.ts";
// Export: every table's columns, and its rows read by keyset in one read snapshot (docs/research.md).
export { readGeneration } from "./db/generation.ts";
// The database: unirank's PGlite dialect (one connection handed out exclusively, so transactions never interleave).
export { PGliteDialect, type PGliteLike } from "./db/pglite-dialect.ts";
export { inReadSnapshot } from "./db/read-snapshot.ts";
// Storage faults: the error a database adapter throws for them (answered with 503), and how adapters tell them.
export {
  classifyStorageError,
  classifyStorageErrors,
  postgresUnavailable,
  StorageUnavailableError,
  sqliteUnavailable,
} from "./db/storage-errors.ts";
export {
  type ErrorCode,
  type ErrorDetail,
  invalidParameter,
  isUnirankError,
  UnirankError,
} from "./errors.ts";
export { type CheckRow, checksOf } from "./export/checks.ts";
export {
  type ColumnType,
  columnNames,
  EXPORT_CHECK_COLUMNS,
  EXPORT_SCAN_COLUMNS,
  EXPORT_UNIVERSITY_COLUMNS,
  type ExportColumn,
} from "./export/columns.ts";
export { type CopyCounts, copyData } from "./export/copy-data.ts";
export { scanLine, universityLine } from "./export/records.ts";
export {
  type ExportSelection,
  type LatestRow,
  latestBatches,
  type ScanRow,
  scanBatches,
  type UniversityRow,
  universityBatches,
} from "./export/rows.ts";
// Import: NDJSON/CSV streams or record objects, validated, written in batches.
export {
  formatIssue,
  ImportAbortedError,
  type ImportCounts,
  type ImportIssue,
  type ImportOptions,
  type ImportProgress,
  type ImportResult,
  importRecords,
} from "./import/import-records.ts";
export { formatOfName, type ImportFormat, type ImportSource } from "./import/sources.ts";
export { migrateAccessState } from "./migrations/access-state.ts";
export { type MigrateResult, migrate } from "./migrations/migrate.ts";
// Parameters: TypeBox schemas per operation, and the parser that validates raw (string) input against them.
export {
  CategoryParams,
  CompareParams,
  DistributionParams,
  IdParams,
  LeaderboardParams,
  ListUniversitiesParams,
  RankingsParams,
  RegressionsParams,
  ScanDiffParams,
  ScanHistoryParams,
  ScanIdParams,
} from "./params/operations.ts";
export { parseParams, type RawParams } from "./params/parse.ts";
export { type ParamsSchema, StringEnum } from "./params/types.ts";
// Queries: the database first, validated parameters, plain data back.
export { type ComparisonEntry, compare } from "./queries/compare.ts";
export { type CountryCount, countryCounts } from "./queries/country-counts.ts";
export {
  exportCheckRecommendations,
  exportUniversity,
  type UniversityExport,
} from "./queries/export-university.ts";
export { getScan, type ScanDetail, type UniversityRef, type UniversityRefs } from "./queries/get-scan.ts";
export { getUniversity, type LatestScanSummary, type UniversityDetail } from "./queries/get-university.ts";
export {
  type CheckStatus,
  type Health,
  type HealthOptions,
  type HealthStatus,
  type HostChecks,
  health,
} from "./queries/health.ts";
export {
  type Leaderboard,
  type LeaderboardEntry,
  type LeaderboardMeta,
  leaderboard,
} from "./queries/leaderboard.ts";
export { listUniversities } from "./queries/list-universities.ts";
// Like with like: the profiles of the latest scans and the one a ranked list holds (docs/scores.md).
export {
  chooseProfile,
  type ProfileCensus,
  type ProfileChoice,
  parseProfileParam,
  profileCensus,
} from "./queries/profiles.ts";
export type { RankedRow } from "./queries/rank.ts";
export { type RankingWalkQuery, walkRanking } from "./queries/ranking-walk.ts";
export { checkScoreWindow, type RankingEntry, type RankingMeta, rankings } from "./queries/rankings.ts";
export { type Regression, type Regressions, regressions, regressionsWindow } from "./queries/regressions.ts";
export { type RegressionsWalkQuery, walkRegressions } from "./queries/regressions-walk.ts";
// The TypeBox schemas of what the queries return (each operation's `data`); result types derive from them.
export {
  CategorySchema,
  CheckChangeSchema,
  ComparisonListSchema,
  CountryCountsSchema,
  ExportSchema,
  HealthSchema,
  type LatestScanRef,
  LatestScanRefSchema,
  LatestScoresSchema,
  LeaderboardEntrySchema,
  LeaderboardMetaSchema,
  LeaderboardSchema,
  PageMetaSchema,
  ProfileMetaSchema,
  type RankingComposites,
  RankingCompositesSchema,
  RankingEntrySchema,
  RankingListSchema,
  RankingMetaSchema,
  RegressionListSchema,
  RegressionsMetaSchema,
  ScanDetailSchema,
  ScanDiffSchema,
  ScanOriginSchema,
  ScanStatusSchema,
  ScanSummarySchema,
  ScoreNameSchema,
  ScoresSchema,
  StatsSchema,
  UniversityDetailSchema,
  UniversityListSchema,
  UniversityRankingSchema,
  UniversityRefSchema,
  UniversitySchema,
} from "./queries/response-schemas.ts";
export {
  type CheckChange,
  type CheckSide,
  type ScanDiff,
  type ScanSummary,
  type ScoreChange,
  scanDiff,
} from "./queries/scan-diff.ts";
export { scanEvidence } from "./queries/scan-evidence.ts";
// The explorer's two queries: a university's scan history and a score's distribution.
export {
  type HistoryScoreName,
  type ScanHistoryEntry,
  type ScanHistoryInput,
  ScanHistorySchema,
  scanHistory,
  walkScanHistory,
} from "./queries/scan-history.ts";
export {
  type DistributionBin,
  type DistributionMeta,
  DistributionMetaSchema,
  DistributionSchema,
  type ScoreDistributionInput,
  scoreDistribution,
} from "./queries/score-distribution.ts";
export type { Paged, PageMeta, Scores, University } from "./queries/shapes.ts";
export { type PlatformStats, stats } from "./queries/stats.ts";
export { type UniversitiesWalkQuery, walkUniversities } from "./queries/universities-walk.ts";
export { type UniversityRanking, universityRanking } from "./queries/university-ranking.ts";
export { type LatestScores, universityScores } from "./queries/university-scores.ts";
// Walks: whole lists page by page, each row of the list once whatever is written meanwhile.
export type { WalkPage, WalkStep } from "./queries/walk.ts";
// The registry of real universities; storing a scan's outcome; the background scan scheduler (the scan function is injected).
export { importRegistry, type RegistryImportSummary } from "./registry/import-registry.ts";
export {
  type RegistryEntry,
  type RegistrySelection,
  selectRegistryEntries,
} from "./registry/registry-entries.ts";
// The methodology (every check, composite weights, profiles) and re-scoring stored evidence (docs/scanner.md).
export { type Methodology, MethodologySchema, methodology } from "./scanner/methodology.ts";
export type { Availability } from "./scanner/observations.ts";
export {
  type RecordScanOptions,
  recordScanOutcome,
  recordScanStart,
  type ScanAttempt,
} from "./scanner/record-scan.ts";
export {
  type RescoreOptions,
  type RescoreSelection,
  type RescoreSummary,
  rescoreScans,
} from "./scanner/rescore.ts";
export { RUBRIC_VERSION, RUBRIC_VERSIONS } from "./scanner/rubric-version.ts";
export { failedOutcome, type ScanOutcome, type ScanTarget } from "./scanner/scan-outcome.ts";
export { scanTargets, type TargetQuery } from "./scanner/scan-targets.ts";
export type { ProbeResult } from "./scanner/scheduler/availability-probes.ts";
export {
  type ClosedAttempt,
  closeExpiredLeases,
  leaseExpiredReason,
} from "./scanner/scheduler/expired-leases.ts";
export { type ScanStatusReport, scanStatus } from "./scanner/scheduler/scan-status.ts";
export {
  type AvailabilityProbe,
  type ScanFunction,
  ScanScheduler,
  type SchedulerEvent,
  type SchedulerLog,
  type SchedulerOptions,
  type SchedulerState,
} from "./scanner/scheduler/scheduler.ts";
export type { Database, DB, ScanStatus, ScoreColumn } from "./schema/database.ts";
export type { DeliveryStatus } from "./schema/webhook-tables.ts";
// Scores: the catalogue of the 34 scores, their advice and how the composites derive.
export { ADVICE } from "./scores/advice.ts";
export {
  CATEGORIES,
  CATEGORY_NAMES,
  type Category,
  type CompositeScoreName,
  OVERALL_SCORE,
  OVERALL_WEIGHTS,
  RANKED_SCORES,
  RANKING_SORTS,
  type RankedScoreName,
  type RankingSort,
  SCORE_BY_NAME,
  SCORE_NAMES,
  SCORES,
  type ScoreDefinition,
  type ScoreGroup,
  type ScoreName,
  SUB_SCORE_NAMES,
  SUB_SCORES,
  type SubScoreName,
} from "./scores/catalogue.ts";
export { deriveScores, type ScoreMap } from "./scores/derive.ts";
export {
  ALL_PROFILES,
  canonicalProfile,
  PART_MEASURES,
  PROFILE_BOUND_SCORES,
  PROFILE_PART_NAMES,
  PROFILE_PARTS,
  type ProfilePart,
  type ProfilePartName,
  profileOf,
  UNKNOWN_PROFILE,
} from "./scores/profile.ts";
export {
  afterCheckRecommendations,
  messageAround,
  priorityOf,
  weakestSubScores,
} from "./scores/recommend.ts";
// Time: the contract's timestamp forms and the injectable clock.
// SHA-256, synchronous and runtime-neutral (cursor digests of the HTTP layer).
export { sha256Hex } from "./text/sha256.ts";
export { type Clock, isoDate, isoTimestamp, parseTimestamp } from "./time/format.ts";
// Webhooks, the sending side: receivers, their deliveries (the worker that sends them is in `unirank/node`).
export {
  type Delivery,
  type DeliveryAttempt,
  deliveryAttempts,
  deliveryBacklog,
  listDeliveries,
  redeliver,
} from "./webhooks/deliveries.ts";
export {
  DELIVERY_HEADER,
  EVENT_HEADER,
  type ScanCompletedEvent,
  SIGNATURE_HEADER,
  signWebhookBody,
  verifyWebhookSignature,
  type WebhookEvent,
} from "./webhooks/receiver.ts";
export {
  addReceiver,
  listReceivers,
  type Receiver,
  type ReceiverSummary,
  removeReceiver,
  setReceiverActive,
} from "./webhooks/receivers.ts";
export { isCountryCode } from "./write/country-codes.ts";
export {
  countDemoUniversities,
  DEMO_DOMAIN_SUFFIXES,
  removeDemoUniversities,
} from "./write/demo-universities.ts";
export type { IngestRecord, ScanRecord, UniversityRecord } from "./write/records.ts";
export { roundScore } from "./write/score-precision.ts";
export {
  EVIDENCE_MAX_CHARS,
  normaliseDomain,
  type Validation,
  type ValidRecord,
  validateRecord,
} from "./write/validate-record.ts";
export { IngestRejectedError, type WriteSummary, writeRecords } from "./write/write-records.ts";
