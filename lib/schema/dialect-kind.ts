import { type Kysely, PostgresAdapter } from "kysely";

export type DialectKind = "sqlite" | "postgres";

/** Which SQL family a Kysely instance speaks; the core writes portable SQL and branches only here. */
// biome-ignore lint/suspicious/noExplicitAny: works on any schema
export function dialectKind(db: Kysely<any>): DialectKind {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}
