import type { TArray, TObject, TSchema } from "@sinclair/typebox";
import { csvRows } from "../../csv/rfc4180.ts";
import { flat, JsonRowArray, JsonText, JsonWriter } from "../spliced-json/json-text.ts";

/** One CSV column of a list's rows: its name and where its value sits in a row. */
export interface CsvColumn {
  name: string;
  path: readonly string[];
}

/** The object branch of a schema (`T | null` unions give T), or null when it is no object. */
function objectOf(schema: TSchema): TObject | null {
  if (schema.type === "object" && schema.properties) return schema as TObject;
  for (const branch of (schema.anyOf ?? []) as TSchema[]) {
    const o = objectOf(branch);
    if (o) return o;
  }
  return null;
}

/**
 * The columns of a row schema, flattened: a nested object's fields are named `<field>_<member>`
 * (`university_id`), except those of `scores`, whose members are the catalogue's score names already.
 */
function flatten(schema: TObject, path: string[], prefix: string): CsvColumn[] {
  const out: CsvColumn[] = [];
  for (const [name, member] of Object.entries(schema.properties as Record<string, TSchema>)) {
    const nested = objectOf(member);
    if (nested)
      out.push(...flatten(nested, [...path, name], name === "scores" ? prefix : `${prefix}${name}_`));
    else out.push({ name: `${prefix}${name}`, path: [...path, name] });
  }
  return out;
}

const columnsBySchema = new WeakMap<TSchema, CsvColumn[]>();

/** The CSV columns of a list whose `data` has the array schema `response`. */
export function csvColumnsOf(response: TSchema): CsvColumn[] {
  let columns = columnsBySchema.get(response);
  if (!columns) {
    const item = objectOf((response as TArray).items ?? response);
    columns = item ? flatten(item, [], "") : [];
    columnsBySchema.set(response, columns);
  }
  return columns;
}

function valueAt(row: unknown, path: readonly string[]): unknown {
  let v = row;
  for (const key of path) {
    if (v === null || typeof v !== "object") return null;
    v = (v as Record<string, unknown>)[key];
  }
  return v ?? null;
}

/** The CSV header and the records of spliced rows, per list schema (rows serialised once, as the JSON rows are). */
interface CsvLines {
  header: string;
  /** A row's JSON text → its CSV record. */
  records: Map<string, string>;
}

/** Records kept per list schema before the map starts afresh (a few MB of short texts). */
const RECORDS_KEPT = 20_000;
const linesBySchema = new WeakMap<TSchema, CsvLines>();

function csvLinesOf(response: TSchema, columns: CsvColumn[]): CsvLines {
  let lines = linesBySchema.get(response);
  if (!lines) {
    lines = { header: csvRows([columns.map((c) => c.name)]), records: new Map() };
    linesBySchema.set(response, lines);
  }
  return lines;
}

/**
 * A list's rows as CSV: the header row, then one record per row (values as in JSON, null as an empty field).
 * Rows spliced from texts (`JsonRowArray`: rankings, leaderboards, the list) are written once per text and kept, as
 * csv-stringify costs tens of µs a row (docs/performance.md); the records are the same (each ends in CRLF).
 */
export function csvTable(response: TSchema, data: unknown): string {
  const columns = csvColumnsOf(response);
  if (data instanceof JsonRowArray) {
    const lines = csvLinesOf(response, columns);
    let out = lines.header;
    for (const text of data.rows) {
      let record = lines.records.get(text);
      if (record === undefined) {
        const row = JSON.parse(text) as unknown;
        // csv-stringify appends its pieces: the record is kept as one flat string.
        record = flat(csvRows([columns.map((c) => valueAt(row, c.path))]));
        if (lines.records.size >= RECORDS_KEPT) lines.records.clear();
        lines.records.set(text, record);
      }
      out += record;
    }
    return out;
  }
  const rows = data instanceof JsonText || data instanceof JsonWriter ? JSON.parse(data.text) : data;
  const records: unknown[][] = [columns.map((c) => c.name)];
  for (const row of (rows ?? []) as unknown[]) records.push(columns.map((c) => valueAt(row, c.path)));
  return csvRows(records);
}
