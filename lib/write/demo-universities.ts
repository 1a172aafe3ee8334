import type { ExpressionBuilder } from "kysely";
import { bumpGeneration } from "../db/generation.ts";
import type { Database, DB } from "../schema/database.ts";
import { quietDataTriggers, wakeDataTriggers } from "./data-writer.ts";

/**
 * Demo universities: those under the names RFC 2606 reserves (`.example`, `.invalid`, `.localhost`), where the
 * synthetic demo dataset and `unirank seed` put theirs. No real university has such a domain.
 */
export const DEMO_DOMAIN_SUFFIXES = [".example", ".invalid", ".localhost"] as const;

const isDemo = (eb: ExpressionBuilder<Database, "universities">) =>
  eb.or(DEMO_DOMAIN_SUFFIXES.map((suffix) => eb("universities.domain", "like", `%${suffix}`)));

/** How many demo universities the database holds. */
export async function countDemoUniversities(db: DB): Promise<number> {
  const row = await db
    .selectFrom("universities")
    .select((eb) => eb.fn.countAll().as("n"))
    .where(isDemo)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Takes the demo universities out, with everything that hangs on them (scans, their evidence and webhook
 * deliveries, latest scans, scan claims, probes), in one transaction; the data generation moves, so rankings,
 * statistics and cached answers follow at once. Returns what was removed.
 */
export async function removeDemoUniversities(db: DB): Promise<{ universities: number; scans: number }> {
  return db.transaction().execute(async (trx) => {
    const scans = await trx
      .selectFrom("scans")
      .innerJoin("universities", "universities.id", "scans.university_id")
      .select((eb) => eb.fn.countAll().as("n"))
      .where(isDemo)
      .executeTakeFirst();
    await quietDataTriggers(trx);
    const deleted = await trx.deleteFrom("universities").where(isDemo).executeTakeFirst();
    const universities = Number(deleted.numDeletedRows);
    await wakeDataTriggers(trx);
    if (universities > 0) await bumpGeneration(trx);
    return { universities, scans: Number(scans?.n ?? 0) };
  });
}
