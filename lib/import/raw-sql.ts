import { CompiledQuery } from "kysely";
import type { DB } from "../schema/database.ts";
import { dialectKind } from "../schema/dialect-kind.ts";

/**
 * Pre-built SQL for the import's hot path: the same multi-row INSERT and IN-list SELECT run thousands of times,
 * so their text is built once per shape (and stays one cached prepared statement) instead of going through the
 * query builder for each batch. Identifiers come from code, never from input; values are always parameters.
 */
export class BatchSql {
  private readonly pg: boolean;
  private readonly cache = new Map<string, string>();
  private readonly compiled = new Map<string, CompiledQuery>();

  constructor(private readonly db: DB) {
    this.pg = dialectKind(db) === "postgres";
  }

  private placeholders(first: number, count: number): string {
    const out: string[] = new Array(count);
    for (let i = 0; i < count; i++) out[i] = this.pg ? `$${first + i}` : "?";
    return out.join(", ");
  }

  private text(key: string, build: () => string): string {
    let t = this.cache.get(key);
    if (t === undefined) {
      t = build();
      this.cache.set(key, t);
    }
    return t;
  }

  /** Runs `text` with `params`. The compiled query is made once per text: Kysely would freeze every big parameter array. */
  async run<R>(text: string, params: readonly unknown[]): Promise<R[]> {
    let template = this.compiled.get(text);
    if (!template) {
      template = CompiledQuery.raw(text);
      this.compiled.set(text, template);
    }
    const query: CompiledQuery<R> = { ...template, parameters: params } as CompiledQuery<R>;
    return (await this.db.executeQuery<R>(query)).rows;
  }

  /** `select <columns> from <table> where <column> in (...)`. */
  selectIn<R>(
    table: string,
    columns: readonly string[],
    column: string,
    values: readonly unknown[],
  ): Promise<R[]> {
    const text = this.text(`s:${table}:${columns.join(",")}:${column}:${values.length}`, () => {
      return `select ${columns.map(q).join(", ")} from ${q(table)} where ${q(column)} in (${this.placeholders(1, values.length)})`;
    });
    return this.run<R>(text, values);
  }

  /** Multi-row `insert into <table> (<columns>) values ... [on conflict (c) do nothing] returning ...`; `params` row-major. */
  insert<R>(
    table: string,
    columns: readonly string[],
    rowCount: number,
    params: readonly unknown[],
    returning: readonly string[],
    onConflictDoNothing?: string,
  ): Promise<R[]> {
    const key = `i:${table}:${columns.length}:${rowCount}:${returning.join(",")}:${onConflictDoNothing}`;
    const text = this.text(key, () => {
      const rows: string[] = [];
      for (let r = 0; r < rowCount; r++)
        rows.push(`(${this.placeholders(1 + r * columns.length, columns.length)})`);
      const ret = returning.length ? ` returning ${returning.map(q).join(", ")}` : "";
      const conflict = onConflictDoNothing ? ` on conflict (${q(onConflictDoNothing)}) do nothing` : "";
      return `insert into ${q(table)} (${columns.map(q).join(", ")}) values ${rows.join(", ")}${conflict}${ret}`;
    });
    return this.run<R>(text, params);
  }
}

const q = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;
