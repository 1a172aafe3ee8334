import type { DB } from "../schema/database.ts";
import type { Clock } from "../time/format.ts";
import { writeRecords } from "../write/write-records.ts";
import { type RegistryEntry, selectRegistryEntries } from "./registry-entries.ts";

export interface RegistryImportSummary {
  /** Entries of the selected countries in the list. */
  listed: number;
  /** Universities added by this run. */
  inserted: number;
  /** Universities whose domain was already stored: left exactly as they were (id, name, country, scans). */
  existing: number;
  duplicates: number;
  invalid: number;
}

const LOOKUP = 500;

/**
 * Adds the registry's universities that are not stored yet (by domain), never scoring anything. A domain already
 * stored, from an earlier run, the demo or an import, is left alone, so a re-run writes nothing at all.
 */
export async function importRegistry(
  db: DB,
  entries: readonly RegistryEntry[],
  options: { countries?: readonly string[]; clock?: Clock } = {},
): Promise<RegistryImportSummary> {
  const selection = selectRegistryEntries(entries, options.countries);
  const stored = new Set<string>();
  const domains = selection.records.map((r) => r.domain);
  for (let i = 0; i < domains.length; i += LOOKUP) {
    const rows = await db
      .selectFrom("universities")
      .select("domain")
      .where("domain", "in", domains.slice(i, i + LOOKUP))
      .execute();
    for (const r of rows) stored.add(r.domain);
  }
  const fresh = selection.records.filter((r) => !stored.has(r.domain));
  if (fresh.length > 0) {
    await writeRecords(db, fresh, { now: options.clock?.(), events: false, clock: options.clock });
  }
  return {
    listed: selection.listed,
    inserted: fresh.length,
    existing: stored.size,
    duplicates: selection.duplicates,
    invalid: selection.invalid,
  };
}
