/** The formats `unirank export` writes (docs/research.md). */
export const EXPORT_FORMATS = ["ndjson", "csv", "scans-csv", "checks-csv", "parquet", "sqlite"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The format a file name implies, or null when it does not tell (`.csv` is the per-university table). */
export function formatOfPath(path: string): ExportFormat | null {
  const name = path.toLowerCase().replace(/\.gz$/, "");
  if (name.endsWith(".ndjson") || name.endsWith(".jsonl")) return "ndjson";
  if (name.endsWith(".csv")) return "csv";
  if (name.endsWith(".parquet")) return "parquet";
  if (/\.(db|sqlite|sqlite3)$/.test(name)) return "sqlite";
  return null;
}
