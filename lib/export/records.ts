import { SCORE_NAMES } from "../scores/catalogue.ts";
import type { ScanRow, UniversityRow } from "./rows.ts";

/**
 * Stored rows as NDJSON lines of the import format (docs/import.md): `unirank import` of the lines gives back the
 * same universities and scans. Scores left out are null; a scan's evidence is spliced in as stored (JSON text).
 */

export function universityLine(u: UniversityRow): string {
  return JSON.stringify({
    type: "university",
    domain: u.domain,
    name: u.name,
    country: u.country,
    created_at: u.created_at,
  });
}

export function scanLine(s: ScanRow): string {
  const record: Record<string, unknown> = {
    type: "scan",
    source_id: s.source_id,
    domain: s.domain,
    status: s.status,
  };
  if (s.started_at !== null) record.started_at = s.started_at;
  if (s.completed_at !== null) record.completed_at = s.completed_at;
  record.profile = s.profile;
  if (s.rubric_version !== null) record.rubric_version = s.rubric_version;
  for (const name of SCORE_NAMES) {
    const v = s[name];
    if (v !== null) record[name] = v;
  }
  const text = JSON.stringify(record);
  return s.evidence ? `${text.slice(0, -1)},"evidence":${s.evidence}}` : text;
}
