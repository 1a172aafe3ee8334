/**
 * unirank's public core (`import … from "unirank"`): the schema and its migrations, the query functions and
 * their parameter and response schemas, the score catalogue, import, API keys, the audit log and webhook
 * receivers. Runtime-neutral: no file system, DNS or sockets (those are in `unirank/node`); the demo data
 * generator is `unirank/seed`, the receiving side of webhooks `unirank/webhooks`. Documented in docs/embedding.md.
 */

// Access control: API keys, request signatures, the audit log.
export {
  type ApiKeyInfo,
  type AuthenticatedKey,
  authenticate,
  type CreatedKey,
  type CreateKeyInput,
  createKey,
  listKeys,
  revokeKey,
} from "./access/api-keys.ts";
export {
  type AuditLog,
  type AuditLogOptions,
  type AuditRecord,
  createAuditLog,
  pruneAudit,
  type ReadAuditOptions,
  readAudit,
} from "./access/audit-log.ts";
export { pruneAccessState } from "./access/prune-access.ts";
export {
  signRequest,
  type VerifySignatureInput,
  verifyRequestSignature,
} from "./access/request-signature.ts";
export {
  capabilitiesOf,
  type DatabaseCapabilities,
  UnsupportedDatabaseError,
} from "./db/capabilities.ts";
// The database: a PGlite dialect, the schema, migrations.
export { PGliteDialect, type PGliteLike } from "./db/pglite-dialect.ts";
export { type ErrorCode, type ErrorDetail, isUnirankError, UnirankError } from "./errors.ts";
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
export { MIGRATIONS, type MigrateResult, migrate } from "./migrations/migrate.ts";
// Parameters: TypeBox schemas per operation, and the parser that validates raw (string) input against them.
export {
  CategoryParams,
  CompareParams,
  DistributionParams,
  IdParams,
  LeaderboardParams,
  ListUniversitiesParams,
  ListUniversitiesV2Params,
  RankingsParams,
  RankingsV2Params,
  RegressionsParams,
  ScanDiffParams,
  ScanHistoryParams,
  ScanIdParams,
} from "./params/operations.ts";
export { parseParams, type RawParams } from "./params/parse.ts";
export type { ParamsSchema } from "./params/types.ts";
// Queries: the database first, validated parameters, plain data back.
export { type ComparisonEntry, compare } from "./queries/compare.ts";
export { type CountryCount, countryCounts } from "./queries/country-counts.ts";
export { exportUniversity, type UniversityExport } from "./queries/export-university.ts";
export { getScan, type ScanDetail, type UniversityRef } from "./queries/get-scan.ts";
export { getUniversity, type LatestScanSummary, type UniversityDetail } from "./queries/get-university.ts";
export {
  type CheckStatus,
  type Health,
  type HealthOptions,
  type HealthProbes,
  type HealthStatus,
  health,
} from "./queries/health.ts";
export {
  type Leaderboard,
  type LeaderboardEntry,
  type LeaderboardMeta,
  leaderboard,
} from "./queries/leaderboard.ts";
export { listUniversities } from "./queries/list-universities.ts";
export { type RankingEntry, rankings } from "./queries/rankings.ts";
export { type Regression, type Regressions, regressions } from "./queries/regressions.ts";
export * from "./queries/response-schemas.ts";
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
} from "./queries/scan-history.ts";
export {
  type DistributionBin,
  DistributionMetaSchema,
  DistributionSchema,
  type ScoreDistributionInput,
  scoreDistribution,
} from "./queries/score-distribution.ts";
export type { Paged, PageMeta, Scores, University } from "./queries/shapes.ts";
export { type PlatformStats, stats } from "./queries/stats.ts";
export { type UniversityRanking, universityRanking } from "./queries/university-ranking.ts";
export { type LatestScores, universityScores } from "./queries/university-scores.ts";
// The registry of real universities and the background scan scheduler (the scan function is injected).
export { importRegistry, type RegistryImportSummary } from "./registry/import-registry.ts";
export {
  type RegistryEntry,
  type RegistrySelection,
  selectRegistryEntries,
} from "./registry/registry-entries.ts";
export type { ProbeResult, UptimeInput } from "./scheduler/probes.ts";
export { type ScanStatusReport, scanStatus } from "./scheduler/scan-status.ts";
export {
  type ProbeFunction,
  type ScanFunction,
  type ScanOutcome,
  ScanScheduler,
  type ScanTarget,
  type SchedulerLog,
  type SchedulerOptions,
  type SchedulerState,
} from "./scheduler/scheduler.ts";
export type { Database, DB, ScanStatus, ScoreColumn } from "./schema/database.ts";
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
export type { Clock } from "./time/format.ts";
// Webhooks, the sending side: receivers, their deliveries (the worker that sends them is in `unirank/node`).
export {
  type Delivery,
  type DeliveryAttempt,
  deliveryAttempts,
  listDeliveries,
  redeliver,
} from "./webhooks/deliveries.ts";
export {
  DELIVERY_HEADER,
  EVENT_HEADER,
  type ScanCompletedEvent,
  SIGNATURE_HEADER,
  sign as signWebhookBody,
  verify as verifyWebhookSignature,
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
export { type IngestCounts, type IngestPolicy, IngestWriter } from "./write/ingest-writer.ts";
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
