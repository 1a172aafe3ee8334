import { type Parser, parse } from "csv-parse";
import type { ImportSource } from "./sources.ts";
import { normalisedText, numberedLines } from "./text-lines.ts";

/** One record as read, before validation: an object (NDJSON, embedder records) or the CSV cells by column. */
export type RawRecord =
  | {
      line: number;
      value: unknown;
      csv: boolean;
      /** The JSON text of an NDJSON line (numbers as written). */
      text?: string;
      error?: undefined;
    }
  /**
   * A line that cannot be read as a record. `fatal`: the rest of the source cannot be read either. `unreadable`:
   * the bytes themselves failed (a corrupt or truncated `.gz`, a failing stream), so nothing read from this source
   * can be trusted either: a corrupt deflate stream inflates to garbled text that only its checksum, at the end,
   * betrays.
   */
  | { line: number; error: string; fatal?: boolean; unreadable?: boolean };

/** Counts the bytes that go through, for progress. */
export class ByteCounter {
  bytes = 0;
  async *count(
    chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  ): AsyncGenerator<Uint8Array | string> {
    for await (const c of chunks) {
      this.bytes += typeof c === "string" ? c.length : c.byteLength;
      yield c;
    }
  }
}

/** A source that stops being readable (a truncated or corrupt `.gz`, a failing stream) after `lastLine`. */
const unreadable = (lastLine: number, e: unknown): RawRecord => ({
  line: lastLine + 1,
  error: `the file cannot be read from this line on (${(e as Error).message}): is it truncated or corrupt?`,
  fatal: true,
  unreadable: true,
});

async function* ndjson(content: AsyncIterable<Uint8Array | string>): AsyncGenerator<RawRecord> {
  let last = 0;
  try {
    for await (const { line, text } of numberedLines(content)) {
      last = line;
      if (text.trim() === "") continue;
      try {
        yield { line, value: JSON.parse(text), csv: false, text };
      } catch (e) {
        yield { line, error: `not valid JSON (${(e as Error).message})` };
      }
    }
  } catch (e) {
    yield unreadable(last, e);
  }
}

/** Columns of the header: names trimmed; an empty or repeated name is an error. */
function header(cells: string[]): { columns: string[]; error?: string } {
  const columns = cells.map((c) => c.trim());
  const seen = new Set<string>();
  for (const c of columns) {
    if (c === "") return { columns, error: "the header has an empty column name" };
    if (seen.has(c)) return { columns, error: `column "${c}" appears twice in the header` };
    seen.add(c);
  }
  return { columns };
}

/** Writes text into the parser as it reads it, waiting when the parser is full; stops when it is destroyed. */
async function feed(parser: Parser, text: AsyncIterable<string>): Promise<void> {
  try {
    for await (const chunk of text) {
      if (parser.destroyed) return;
      if (!parser.write(chunk))
        await new Promise<void>((resolve) => {
          parser.once("drain", resolve);
          parser.once("close", resolve);
        });
    }
    if (!parser.destroyed) parser.end();
  } catch (e) {
    parser.destroy(e as Error);
  }
}

async function* csv(content: AsyncIterable<Uint8Array | string>): AsyncGenerator<RawRecord> {
  const parser = parse({ info: true, raw: true, relax_column_count: true, skip_empty_lines: true });
  void feed(parser, normalisedText(content));
  let columns: string[] | null = null;
  let last = 0;
  try {
    for await (const item of parser as AsyncIterable<{
      record: string[];
      raw: string;
      info: { lines: number };
    }>) {
      const inner = item.raw.replace(/^\n+/, "").replace(/\n$/, "");
      let breaks = 0;
      for (let i = inner.indexOf("\n"); i !== -1; i = inner.indexOf("\n", i + 1)) breaks++;
      const line = item.info.lines - breaks;
      last = item.info.lines;
      if (columns === null) {
        const h = header(item.record);
        if (h.error) {
          yield { line, error: h.error, fatal: true };
          return;
        }
        columns = h.columns;
        yield { line, value: columns, csv: true };
        continue;
      }
      if (item.record.length !== columns.length) {
        yield { line, error: `${item.record.length} fields where the header has ${columns.length}` };
        continue;
      }
      const value: Record<string, string> = {};
      for (let i = 0; i < columns.length; i++) {
        const cell = item.record[i] ?? "";
        if (cell !== "") value[columns[i] as string] = cell;
      }
      yield { line, value, csv: true };
    }
  } catch (e) {
    const err = e as Error & { lines?: number; code?: string };
    // csv-parse's own errors carry a code and the line; anything else is the input failing.
    if (typeof err.code === "string" && err.code.startsWith("CSV_")) {
      yield { line: err.lines ?? last + 1, error: `CSV: ${err.message}`, fatal: true };
    } else yield unreadable(last, e);
  } finally {
    parser.destroy();
  }
}

async function* objects(records: AsyncIterable<unknown> | Iterable<unknown>): AsyncGenerator<RawRecord> {
  let line = 0;
  for await (const value of records) yield { line: ++line, value, csv: false };
}

/**
 * The raw records of a source, in order. For CSV the first item is the header (`value`: the column names);
 * callers validate it before the rows.
 */
export function readSource(source: ImportSource, counter: ByteCounter): AsyncGenerator<RawRecord> {
  if ("records" in source) return objects(source.records);
  const content = counter.count(source.content);
  return source.format === "csv" ? csv(content) : ndjson(content);
}
