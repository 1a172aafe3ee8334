/**
 * docs/data-dictionary.md against what it describes: the export's column lists (`lib/export/columns.ts`), the
 * score catalogue, and the CSV columns of every list route.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { TSchema } from "@sinclair/typebox";
import {
  EXPORT_CHECK_COLUMNS,
  EXPORT_SCAN_COLUMNS,
  EXPORT_UNIVERSITY_COLUMNS,
  type ExportColumn,
} from "../../lib/export/columns.ts";
import { type DB, SCORE_BY_NAME, SCORE_NAMES } from "../../lib/index.ts";
import { allRoutes } from "../../src/http/app.ts";
import { csvColumnsOf } from "../../src/http/csv/csv-table.ts";
import { testContext } from "../support/fixtures-app.ts";

const doc = readFileSync(join(resolve(import.meta.dir, "../.."), "docs/data-dictionary.md"), "utf8");

/** The rows (cells) of the first table after the heading that starts with `heading`. */
function tableAfter(heading: string): string[][] {
  const start = doc.indexOf(`\n## ${heading}`);
  expect(start, heading).toBeGreaterThan(0);
  const end = doc.indexOf("\n## ", start + 1);
  return doc
    .slice(start, end < 0 ? undefined : end)
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| column") && !line.startsWith("| endpoint"))
    .map((line) =>
      line
        .slice(1, -1)
        .split(" | ")
        .map((cell) => cell.trim()),
    );
}

const asRows = (columns: readonly ExportColumn[]) =>
  columns.map((c) => [`\`${c.name}\``, c.type, c.nullable ? "may be" : "never", c.description]);

test("each export table is documented column by column, in file order, with type, emptiness and meaning", () => {
  expect(tableAfter("`csv`")).toEqual(asRows(EXPORT_UNIVERSITY_COLUMNS));
  expect(tableAfter("`scans-csv` and `parquet`")).toEqual(asRows(EXPORT_SCAN_COLUMNS));
  expect(tableAfter("`checks-csv`")).toEqual(asRows(EXPORT_CHECK_COLUMNS));
});

test("every score of the catalogue is a column of both score tables, described by the catalogue", () => {
  for (const columns of [EXPORT_UNIVERSITY_COLUMNS, EXPORT_SCAN_COLUMNS]) {
    const scores = columns.filter((c) => SCORE_BY_NAME.has(c.name));
    expect(scores.map((c) => c.name)).toEqual([...SCORE_NAMES]);
    for (const c of scores) {
      const s = SCORE_BY_NAME.get(c.name);
      expect([c.type, c.nullable, c.description]).toEqual(["number", true, `${s?.label}: ${s?.measures}`]);
    }
  }
});

test("the API's CSV columns of every list route", () => {
  const routes = allRoutes(testContext({} as DB)).filter((r) => r.list);
  expect(routes.length).toBe(9);
  const documented = tableAfter("API CSV answers");
  expect(documented).toEqual(
    routes.map((r) => [
      `\`${r.path.replace(/:([a-z_]+)/g, "{$1}")}\``,
      csvColumnsOf(r.response as TSchema)
        .map((c) => `\`${c.name}\``)
        .join(", "),
    ]),
  );
});
