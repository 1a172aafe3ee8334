import { StorageUnavailableError } from "../../lib/index.ts";
import { bunConnectionFault } from "./bun-postgres-dialect.ts";

/**
 * What a failed PostgreSQL write says about the storage, in words fit for `/health` (no driver text), or null
 * when it is no storage fault (SQLSTATE classes 53, 57, 08, 25006; the client's own codes for a lost connection).
 */
export function postgresStorageFault(error: unknown): string | null {
  const cause = error instanceof StorageUnavailableError ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return null;
  if (code === "53100") return "storage full";
  if (code === "25006") return "storage not writable";
  if (code.startsWith("53")) return "database out of resources";
  if (code.startsWith("57") || code.startsWith("08") || code === "ECONNREFUSED" || bunConnectionFault(code))
    return "database unreachable";
  return null;
}
