import type { ScanRow } from "./rows.ts";

/** One check of a scan's evidence, in the columns of `EXPORT_CHECK_COLUMNS`. */
export interface CheckRow {
  scan_id: number;
  university_id: number;
  domain: string;
  check_id: string;
  score: string;
  label: string | null;
  points: number;
  max: number;
  detail: string | null;
  remediation: string | null;
}

const text = (v: unknown): string | null => (typeof v === "string" ? v : null);

/**
 * The checks of a scan's stored evidence (`evidence.checks`, docs/scanner.md), one row each. Evidence an importer
 * gave in another shape has no checks to list: entries without a string id and score and numeric points and max
 * are left out.
 */
export function checksOf(scan: ScanRow): CheckRow[] {
  if (!scan.evidence) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(scan.evidence);
  } catch {
    return [];
  }
  const checks = (parsed as { checks?: unknown } | null)?.checks;
  if (!Array.isArray(checks)) return [];
  const out: CheckRow[] = [];
  for (const c of checks as Record<string, unknown>[]) {
    if (c === null || typeof c !== "object") continue;
    const { id, score, points, max } = c;
    if (typeof id !== "string" || typeof score !== "string") continue;
    if (typeof points !== "number" || typeof max !== "number") continue;
    out.push({
      scan_id: scan.id,
      university_id: scan.university_id,
      domain: scan.domain,
      check_id: id,
      score,
      label: text(c.label),
      points,
      max,
      detail: text(c.detail),
      remediation: text(c.remediation),
    });
  }
  return out;
}
