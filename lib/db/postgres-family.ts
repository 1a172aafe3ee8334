import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type TransactionSettings,
} from "kysely";

/** What every PostgreSQL dialect of unirank shares (PGlite's, Bun's client's): Kysely's PostgreSQL parts. */
export abstract class PostgresFamilyDialect implements Dialect {
  abstract createDriver(): Driver;
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}

/** A PostgreSQL driver's transactions, as statements on the connection Kysely hands it. */
export abstract class PostgresFamilyDriver implements Driver {
  abstract init(): Promise<void>;
  abstract acquireConnection(): Promise<DatabaseConnection>;
  abstract releaseConnection(connection: DatabaseConnection): Promise<void>;
  abstract destroy(): Promise<void>;

  async beginTransaction(c: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const modes = [
      settings.isolationLevel ? `isolation level ${settings.isolationLevel}` : "",
      settings.accessMode ?? "",
    ].filter(Boolean);
    await c.executeQuery(CompiledQuery.raw(`start transaction ${modes.join(", ")}`.trim()));
  }
  async commitTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw("commit"));
  }
  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw("rollback"));
  }
}
