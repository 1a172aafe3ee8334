import { SCORE_BY_NAME, SCORE_NAMES, type ScoreName } from "../scores/catalogue.ts";

/**
 * The columns of each tabular export (`csv`, `scans-csv`, `checks-csv`, `parquet`), in file order, with the type
 * a reader should give them. docs/data-dictionary.md describes every one; a test holds the two together.
 */

/** `integer`: a whole number; `number`: a score 0..100 with one decimal; `text`: UTF-8; `timestamp`: UTC text. */
export type ColumnType = "integer" | "number" | "text" | "timestamp";

export interface ExportColumn {
  readonly name: string;
  readonly type: ColumnType;
  /** False when every row has a value. */
  readonly nullable: boolean;
  readonly description: string;
}

const col = (name: string, type: ColumnType, nullable: boolean, description: string): ExportColumn => ({
  name,
  type,
  nullable,
  description,
});

/** The 39 scores of the catalogue, each described as `label: what it measures`. */
const SCORE_COLUMNS: readonly ExportColumn[] = SCORE_NAMES.map((name: ScoreName) => {
  const score = SCORE_BY_NAME.get(name);
  return col(name, "number", true, `${score?.label}: ${score?.measures}`);
});

const UNIVERSITY_ID = col("university_id", "integer", false, "The university's id in the source database");
const DOMAIN = col("domain", "text", false, "The university's domain (lower case, IDN as punycode)");
const NAME = col("name", "text", false, "The university's name");
const COUNTRY = col("country", "text", false, "ISO 3166-1 alpha-2 country code, upper case");

/** `csv`: one row per university, with its latest completed scan (empty when it has none). */
export const EXPORT_UNIVERSITY_COLUMNS: readonly ExportColumn[] = [
  UNIVERSITY_ID,
  DOMAIN,
  NAME,
  COUNTRY,
  col("created_at", "timestamp", false, "When the university was added, UTC, YYYY-MM-DD HH:MM:SS"),
  col("scan_count", "integer", false, "Completed scans of the university"),
  col("scan_id", "integer", true, "Id of the latest completed scan; empty when there is none"),
  col("completed_at", "timestamp", true, "When the latest completed scan completed, ISO 8601 with offset"),
  ...SCORE_COLUMNS,
];

/** `scans-csv` and `parquet`: one row per scan of any status, with its scores. */
export const EXPORT_SCAN_COLUMNS: readonly ExportColumn[] = [
  col("scan_id", "integer", false, "The scan's id in the source database"),
  UNIVERSITY_ID,
  DOMAIN,
  NAME,
  COUNTRY,
  col("source_id", "text", true, "The producer's id of the scan (the import key)"),
  col("status", "text", false, "pending, running, completed or failed"),
  col("started_at", "timestamp", true, "When the scan started, ISO 8601 with offset"),
  col("completed_at", "timestamp", true, "When the scan completed (or failed), ISO 8601 with offset"),
  col(
    "profile",
    "text",
    false,
    "The measurement parts that made its scores, comma-separated (site,availability,browser,openalex,wikidata,greenweb), or unknown",
  ),
  col(
    "rubric_version",
    "integer",
    true,
    "The version of unirank's rubrics that scored it; empty when they did not",
  ),
  ...SCORE_COLUMNS,
];

/** `checks-csv`: one row per check of a scan's stored evidence (scans without evidence have none). */
export const EXPORT_CHECK_COLUMNS: readonly ExportColumn[] = [
  col("scan_id", "integer", false, "The scan the check belongs to"),
  UNIVERSITY_ID,
  DOMAIN,
  col("check_id", "text", false, "`<area>.<check>`, as in docs/scanner.md"),
  col("score", "text", false, "The sub-score the check counts towards"),
  col("label", "text", true, "What the check looks at"),
  col("points", "number", false, "Points earned (negative for a penalty)"),
  col("max", "number", false, "Points possible"),
  col("detail", "text", true, "What was observed"),
  col("remediation", "text", true, "How to earn the missing points; empty when all were earned"),
];

export const columnNames = (columns: readonly ExportColumn[]): string[] => columns.map((c) => c.name);
