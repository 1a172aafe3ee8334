import type { DB } from "../schema/database.ts";
import { pruneAudit } from "./audit-log.ts";
import { pruneRateLimits } from "./rate-limiter.ts";
import { pruneSignatureReplays } from "./request-signature.ts";
import type { AccessDB } from "./tables.ts";

/** Housekeeping of access state: aged-out rate-limit rows, stale replay records, audit rows past retention. */
export async function pruneAccessState(
  db: DB | AccessDB,
  options: { now: Date; auditRetentionDays: number },
): Promise<{ auditRowsDeleted: number }> {
  await pruneRateLimits(db, options.now);
  await pruneSignatureReplays(db, options.now);
  const auditRowsDeleted = await pruneAudit(db, {
    now: options.now,
    retentionDays: options.auditRetentionDays,
  });
  return { auditRowsDeleted };
}
