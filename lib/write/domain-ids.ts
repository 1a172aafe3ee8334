import type { DB } from "../schema/database.ts";

/** Adds to `ids` the stored university id of every domain in `domains` it does not hold yet. */
export async function resolveDomainIds(
  db: DB,
  ids: Map<string, number>,
  domains: Iterable<string>,
): Promise<void> {
  const missing = [...new Set(domains)].filter((d) => !ids.has(d));
  if (missing.length === 0) return;
  const found = await db
    .selectFrom("universities")
    .select(["id", "domain"])
    .where("domain", "in", missing)
    .execute();
  for (const r of found) ids.set(r.domain, Number(r.id));
}
