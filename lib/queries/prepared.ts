import type { Compilable, CompiledQuery } from "kysely";
import type { DB } from "../schema/database.ts";

/**
 * A query built and compiled once per database handle, then executed with new parameter values: building
 * and compiling a Kysely query costs several times more than running a small indexed one. The SQL is still
 * written with the query builder and compiled by each handle's own dialect, so it stays portable.
 *
 * `executor` runs it elsewhere than `db`, e.g. on a transaction of `db` (compiled once, run in every transaction).
 *
 * `build` receives placeholders (`arg(0)`, `arg(1)`, ...) to use where the values go; constants written in the
 * builder stay constants. `variant` tells apart shapes of one query (an `in` list of another length).
 */
export function prepared<R, T = number>(
  build: (db: DB, arg: (i: number) => T, variant: number) => Compilable<R>,
): (db: DB, args: readonly T[], variant?: number, executor?: DB) => Promise<R[]> {
  const compiled = new WeakMap<DB, Map<number, { query: CompiledQuery<R>; slots: (number | null)[] }>>();
  return async (db, args, variant = 0, executor = db) => {
    let byVariant = compiled.get(db);
    if (!byVariant) {
      byVariant = new Map();
      compiled.set(db, byVariant);
    }
    let entry = byVariant.get(variant);
    if (!entry) {
      const query = build(db, placeholder as (i: number) => T, variant).compile();
      const slots = query.parameters.map((p) => (p instanceof Placeholder ? p.index : null));
      entry = { query, slots };
      byVariant.set(variant, entry);
    }
    const { query, slots } = entry;
    const parameters = query.parameters.map((p, i) => {
      const slot = slots[i];
      return slot === null || slot === undefined ? p : args[slot];
    });
    const result = await executor.executeQuery<R>({ ...query, parameters });
    return result.rows;
  };
}

class Placeholder {
  constructor(readonly index: number) {}
}

function placeholder(i: number): unknown {
  return new Placeholder(i);
}
