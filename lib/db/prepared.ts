import type { Compilable, CompiledQuery } from "kysely";
import type { DB } from "../schema/database.ts";
import { directReadOf } from "./direct-reads.ts";

/**
 * A query built and compiled once per database handle and shape, then executed with new parameter values:
 * building and compiling a Kysely query costs several times more than running a small indexed one, and a
 * multi-row INSERT of hundreds of rows far more. The SQL is still written with the query builder and compiled by
 * each handle's own dialect, so it stays portable.
 *
 * `build` receives placeholders (`arg(0)`, `arg(1)`, ...) to use where the values go; constants written in the
 * builder stay constants. `variant` tells apart shapes of one query (an `in` list or a row count of another
 * length). `executor` runs it elsewhere than `db`, e.g. on a transaction of `db` (compiled once, run in each).
 */
export function prepared<R, T = number>(
  build: (db: DB, arg: (i: number) => T, variant: number) => Compilable<R>,
): (db: DB, args: readonly unknown[], variant?: number, executor?: DB) => Promise<R[]> {
  const compiled = new WeakMap<DB, Map<number, Compiled<R>>>();
  return async (db, args, variant = 0, executor = db) => {
    let byVariant = compiled.get(db);
    if (!byVariant) {
      byVariant = new Map();
      compiled.set(db, byVariant);
    }
    let entry = byVariant.get(variant);
    if (!entry) {
      entry = compile(build(db, placeholder as (i: number) => T, variant).compile());
      byVariant.set(variant, entry);
    }
    const { query, slots, inOrder } = entry;
    // Every parameter a placeholder, in order: the arguments are the parameters, with no copy.
    const parameters =
      inOrder && args.length === slots.length
        ? args
        : query.parameters.map((p, i) => {
            const slot = slots[i];
            return slot === null || slot === undefined ? p : args[slot];
          });
    const compiledQuery: CompiledQuery<R> = { ...query, parameters };
    // A plain read on a handle whose connection is free runs at once (`DirectRead`); anything else the usual way.
    const rows = directReadOf(executor)?.(compiledQuery);
    if (rows !== undefined) return rows;
    return (await executor.executeQuery<R>(compiledQuery)).rows;
  };
}

interface Compiled<R> {
  query: CompiledQuery<R>;
  /** The argument each parameter takes, or null for a constant of the builder. */
  slots: (number | null)[];
  /** Parameter i is `arg(i)` for every i. */
  inOrder: boolean;
}

function compile<R>(query: CompiledQuery<R>): Compiled<R> {
  const slots = query.parameters.map((p) => (p instanceof Placeholder ? p.index : null));
  return { query, slots, inOrder: slots.every((s, i) => s === i) };
}

class Placeholder {
  constructor(readonly index: number) {}
}

function placeholder(i: number): unknown {
  return new Placeholder(i);
}
