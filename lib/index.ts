/** unirank core: pure query functions over a Kysely storage port. No HTTP, no runtime-specific imports. */

export * from "./access/api-key-format.ts";
export * from "./access/api-keys.ts";
export * from "./access/audit-log.ts";
export * from "./access/client-ip.ts";
export * from "./access/prune-access.ts";
export * from "./access/rate-limiter.ts";
export * from "./access/request-signature.ts";
export * from "./access/tables.ts";
export * from "./db/pglite-dialect.ts";
export * from "./errors.ts";
export * from "./import/country-codes.ts";
export * from "./import/import-files.ts";
export * from "./import/import-records.ts";
export * from "./import/sources.ts";
export * from "./import/validate.ts";
export * from "./params/operations.ts";
export * from "./params/parse.ts";
export * from "./params/types.ts";
export * from "./queries/compare.ts";
export * from "./queries/export-university.ts";
export * from "./queries/get-scan.ts";
export * from "./queries/get-university.ts";
export * from "./queries/health.ts";
export * from "./queries/json-text.ts";
export * from "./queries/leaderboard.ts";
export * from "./queries/list-universities.ts";
export * from "./queries/rankings.ts";
export * from "./queries/regressions.ts";
export * from "./queries/response-schemas.ts";
export * from "./queries/scan-diff.ts";
export * from "./queries/shapes.ts";
export * from "./queries/stats.ts";
export * from "./queries/university-scores.ts";
export * from "./schema/access-state.ts";
export * from "./schema/database.ts";
export * from "./schema/dialect-kind.ts";
export * from "./schema/migrations.ts";
export * from "./scores/advice.ts";
export * from "./scores/catalogue.ts";
export * from "./scores/derive.ts";
export * from "./seed/generate.ts";
export * from "./text/search-key.ts";
export * from "./time/format.ts";
export * from "./webhooks/address-guard.ts";
export * from "./webhooks/claim.ts";
export * from "./webhooks/deliveries.ts";
export * from "./webhooks/dispatcher.ts";
export * from "./webhooks/outbox.ts";
export {
  DELIVERY_HEADER,
  EVENT_HEADER,
  type ScanCompletedEvent,
  SIGNATURE_HEADER,
  sign as signWebhookBody,
  verify as verifyWebhookSignature,
  type WebhookContext,
  type WebhookEvent,
  type WebhookHandlerOptions,
  webhookHandler,
} from "./webhooks/receiver.ts";
export * from "./webhooks/receivers.ts";
export * from "./webhooks/schedule.ts";
export * from "./webhooks/send.ts";
export * from "./webhooks/tables.ts";
export * from "./write/data-writer.ts";
export * from "./write/generation.ts";
export * from "./write/records.ts";
export * from "./write/refresh-latest.ts";
export * from "./write/write-records.ts";
