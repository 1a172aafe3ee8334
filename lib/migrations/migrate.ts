import { type Kysely, type Migration, type MigrationProvider, Migrator } from "kysely";
import { capabilitiesOf } from "../db/capabilities.ts";
import * as core from "./001-core.ts";
import * as access from "./002-access.ts";
import * as webhooks from "./003-webhooks.ts";
import * as previousScan from "./004-previous-scan.ts";
import * as rankingsInMemory from "./005-rankings-in-memory.ts";
import * as scanCount from "./006-scan-count.ts";
import * as dataTriggers from "./007-data-triggers.ts";
import * as scanEvidence from "./008-scan-evidence.ts";
import * as scanClaims from "./009-scan-claims.ts";
import * as scanProfile from "./010-scan-profile.ts";
import * as universitiesGeneration from "./011-universities-generation.ts";
import * as latestScanChanges from "./012-latest-scan-changes.ts";

/** Every migration, in order, as code (a compiled binary has no migrations folder to read). */
export const MIGRATIONS: Record<string, Migration> = {
  "001-core": core,
  "002-access": access,
  "003-webhooks": webhooks,
  "004-previous-scan": previousScan,
  "005-rankings-in-memory": rankingsInMemory,
  "006-scan-count": scanCount,
  "007-data-triggers": dataTriggers,
  "008-scan-evidence": scanEvidence,
  "009-scan-claims": scanClaims,
  "010-scan-profile": scanProfile,
  "011-universities-generation": universitiesGeneration,
  "012-latest-scan-changes": latestScanChanges,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export interface MigrateResult {
  applied: string[];
}

/** Brings the database to the current schema. Safe to call at every start; concurrent callers wait on a lock. */
// biome-ignore lint/suspicious/noExplicitAny: any schema may be migrated
export async function migrate(db: Kysely<any>): Promise<MigrateResult> {
  // An unsupported database is refused before anything runs.
  capabilitiesOf(db);
  const migrator = new Migrator({
    db,
    provider,
    migrationTableName: "unirank_migrations",
    migrationLockTableName: "unirank_migrations_lock",
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return { applied: (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName) };
}
