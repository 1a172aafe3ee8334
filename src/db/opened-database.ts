import type { Kysely } from "kysely";
import type { Database } from "../../lib/index.ts";

/** An open database: its Kysely handle, which kind it is, and how to close it. */
export interface OpenedDatabase {
  db: Kysely<Database>;
  kind: "sqlite" | "postgres";
  close(): Promise<void>;
  /** Stops (a reason) or resumes (null) every write through this handle; SQLite files only. */
  stopWrites?(reason: string | null): void;
}
