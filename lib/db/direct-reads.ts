import type { CompiledQuery } from "kysely";

/**
 * A database handle's way to run a compiled plain read at once, past the query builder's layers of connection
 * handling (each an `await`): given by a dialect that can run one synchronously when its connection is free
 * (src/db's bun:sqlite), used by `prepared`. It gives undefined when it cannot run that read now (the connection
 * is held, by a transaction say, or the statement is not a plain read, or it failed); the caller then runs it
 * the usual way, which also retries and reports failures. Only for a handle without plugins: their
 * transformations of the rows are skipped. Why it exists is in docs/performance.md.
 */
export type DirectRead = <R>(query: CompiledQuery<R>) => R[] | undefined;

const directReads = new WeakMap<object, DirectRead>();

/** Gives `db` (a Kysely instance without plugins) its direct read. */
export function registerDirectRead(db: object, read: DirectRead): void {
  directReads.set(db, read);
}

/** The direct read of a handle, if its dialect gave one. */
export const directReadOf = (db: object): DirectRead | undefined => directReads.get(db);
