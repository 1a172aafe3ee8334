import pg from "pg";

/**
 * A `pg` client that sends each repeated statement as a named (server-side prepared) statement: PostgreSQL parses
 * and plans it once per connection, and each later run is a Bind and an Execute in the same single round trip
 * (measured in docs/performance.md). Kysely passes every query as SQL text with its parameters; the text names
 * the statement. Statements that select `*` stay unnamed (a column added later would change a prepared result's
 * type), and so does every statement past the first `MAX_NAMED` distinct texts of the process.
 */
export const MAX_NAMED = 2000;

const names = new Map<string, string>();
const SELECTS_STAR = /(?:select|,)\s*(?:"[^"]*"\.)?\*/i;

/** The name of the statement `text`, or undefined when it goes unnamed. */
export function statementName(text: string): string | undefined {
  const known = names.get(text);
  if (known !== undefined) return known;
  if (names.size >= MAX_NAMED || SELECTS_STAR.test(text)) return undefined;
  const name = `unirank_${names.size + 1}`;
  names.set(text, name);
  return name;
}

export class NamedStatementClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query is overloaded; this forwards any of its forms
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === "string" && Array.isArray(values) && callback === undefined) {
      const name = statementName(config);
      if (name !== undefined) return super.query({ name, text: config, values });
    }
    return super.query(config, values, callback);
  }
}
