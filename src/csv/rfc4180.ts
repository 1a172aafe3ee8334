import { stringify } from "csv-stringify/sync";

/**
 * RFC 4180 text of rows (arrays of cells), by csv-stringify: CRLF after every record, a field quoted when it holds
 * a comma, a quote (doubled) or a line break, an empty field for null. Numbers as JavaScript writes them (`72.5`).
 */
const OPTIONS = { record_delimiter: "\r\n", quote_record_delimiter: true } as const;

export function csvRows(rows: readonly (readonly unknown[])[]): string {
  return rows.length === 0 ? "" : stringify(rows as unknown[][], OPTIONS);
}
