/** unirank core: pure query functions over a Kysely storage port. No HTTP, no runtime-specific imports. */

export * from "./errors.ts";
export * from "./params/operations.ts";
export * from "./params/parse.ts";
export * from "./params/types.ts";
export * from "./queries/compare.ts";
export * from "./queries/export-university.ts";
export * from "./queries/get-university.ts";
export * from "./queries/health.ts";
export * from "./queries/list-universities.ts";
export * from "./queries/rankings.ts";
export * from "./queries/shapes.ts";
export * from "./queries/stats.ts";
export * from "./queries/university-scores.ts";
export * from "./schema/database.ts";
export * from "./schema/dialect-kind.ts";
export * from "./schema/migrations.ts";
export * from "./scores/advice.ts";
export * from "./scores/catalogue.ts";
export * from "./scores/derive.ts";
export * from "./seed/generate.ts";
export * from "./text/search-key.ts";
export * from "./time/format.ts";
export * from "./write/generation.ts";
export * from "./write/records.ts";
export * from "./write/refresh-latest.ts";
export * from "./write/write-records.ts";
