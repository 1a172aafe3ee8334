import type { ScanStatus } from "../schema/database.ts";
import { SCORE_NAMES, type ScoreName } from "../scores/catalogue.ts";
import { fillDerivedScores } from "../scores/derive.ts";
import { canonicalProfile, PROFILE_PART_NAMES, UNKNOWN_PROFILE } from "../scores/profile.ts";
import { jsonMemberText } from "../text/json-member-text.ts";
import { canonicalTimestamp, isoTimestamp, parseTimestamp, sqlTimestamp } from "../time/format.ts";
import { isCountryCode } from "./country-codes.ts";
import type { ScanRecord, UniversityRecord } from "./records.ts";
import { CSV_SCORE, roundScore, writtenScoreInRange } from "./score-precision.ts";

/** Fields of each record type; a CSV header may hold any of them (a file may mix both types). */
export const UNIVERSITY_FIELDS: ReadonlySet<string> = new Set([
  "type",
  "domain",
  "name",
  "country",
  "created_at",
]);
export const SCAN_FIELDS: ReadonlySet<string> = new Set([
  "type",
  "source_id",
  "domain",
  "status",
  "started_at",
  "completed_at",
  "evidence",
  "profile",
  "rubric_version",
  ...SCORE_NAMES,
]);
export const ALL_FIELDS: ReadonlySet<string> = new Set([...UNIVERSITY_FIELDS, ...SCAN_FIELDS]);

const STATUSES: readonly ScanStatus[] = ["pending", "running", "completed", "failed"];
const SCORE_SET: ReadonlySet<string> = new Set(SCORE_NAMES);
const DOMAIN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
const DATE_HINT = "ISO 8601 with an offset, or YYYY-MM-DD HH:MM:SS in UTC";

/** The most characters a scan's evidence may take as JSON text. */
export const EVIDENCE_MAX_CHARS = 65_536;

/**
 * A scan as stored: timestamps in the contract's form, every score present (null when not measured), evidence as
 * JSON text, its profile canonical.
 */
export type ValidScan = Omit<
  ScanRecord,
  "started_at" | "completed_at" | "evidence" | "profile" | "rubric_version"
> & {
  started_at: string | null;
  completed_at: string | null;
  evidence: string | null;
  profile: string;
  rubric_version: number | null;
};

/** A record as stored: trimmed, domain lower-cased, country upper-cased, timestamps in the contract's forms. */
export type ValidRecord = UniversityRecord | ValidScan;

export type Validation = { ok: true; record: ValidRecord } | { ok: false; errors: string[]; domain?: string };

const show = (v: unknown) => (typeof v === "string" ? JSON.stringify(v) : String(v));

/** Lower-cased ASCII (punycode) form of a domain, or null when it is not a valid domain name. */
export function normaliseDomain(text: string): string | null {
  let d = text.trim().toLowerCase().replace(/\.$/, "");
  if (/[^ -~]/.test(d)) {
    try {
      d = new URL(`http://${d}`).hostname;
    } catch {
      return null;
    }
  }
  return DOMAIN.test(d) ? d : null;
}

/**
 * Checks one record and returns it normalised, or every problem it has. `csv`: values are text cells (numbers
 * are parsed from them); otherwise JSON types are required. `deriveScores: false` leaves missing composites and
 * `overall_score` as they are instead of deriving them (and requiring an overall score).
 */
const LONG_DIGIT_RUN = /\d{9}/;

export function validateRecord(
  value: unknown,
  csv: boolean,
  options: {
    deriveScores?: boolean;
    /** The JSON text `value` was parsed from: scores at the bounds are judged as written there. */
    source?: string;
  } = {},
): Validation {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, errors: ["a record must be a JSON object"] };
  }
  const v = value as Record<string, unknown>;
  const errors: string[] = [];
  const type = v.type;
  if (type === undefined || type === null || type === "") {
    return { ok: false, errors: ["missing required field type (university or scan)"] };
  }
  if (type !== "university" && type !== "scan") {
    return { ok: false, errors: [`type ${show(type)} is not university or scan`] };
  }
  const allowed = type === "university" ? UNIVERSITY_FIELDS : SCAN_FIELDS;
  const keys = Object.keys(v);
  for (const key of keys) {
    if (!ALL_FIELDS.has(key)) errors.push(`unknown field ${JSON.stringify(key)}`);
    else if (!allowed.has(key) && v[key] !== null && v[key] !== undefined) {
      errors.push(`field ${key} does not apply to a ${type}`);
    }
  }

  const text = (key: string, required: boolean, max: number): string | undefined => {
    const raw = v[key];
    if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) {
      if (required) errors.push(`missing required field ${key}`);
      return undefined;
    }
    if (typeof raw !== "string") {
      if (key === "source_id" && typeof raw === "number" && Number.isInteger(raw)) return String(raw);
      errors.push(`${key} ${show(raw)} is not a string`);
      return undefined;
    }
    if (raw.length > max) {
      errors.push(`${key} is longer than ${max} characters`);
      return undefined;
    }
    // PostgreSQL cannot store U+0000 in text; refused everywhere, so a record gets one answer on every database.
    if (raw.includes("\u0000")) {
      errors.push(`${key} contains a NUL character (U+0000)`);
      return undefined;
    }
    return raw;
  };
  const domainOf = (): string | undefined => {
    const raw = text("domain", true, 253);
    if (raw === undefined) return undefined;
    const d = normaliseDomain(raw);
    if (d === null) errors.push(`domain ${show(raw)} is not a valid domain name`);
    return d ?? undefined;
  };
  const timestamp = (key: string, form: "iso" | "sql"): string | null | undefined => {
    const raw = text(key, false, 64);
    if (raw === undefined) return v[key] === undefined || v[key] === null || v[key] === "" ? null : undefined;
    const canonical = canonicalTimestamp(raw, form);
    if (canonical !== null) return canonical;
    const date = parseTimestamp(raw);
    if (!date) {
      errors.push(`${key} ${show(raw)} is not a valid date (${DATE_HINT})`);
      return undefined;
    }
    return form === "iso" ? isoTimestamp(date) : sqlTimestamp(date);
  };

  if (type === "university") {
    const domain = domainOf();
    const name = text("name", true, 500)?.trim();
    const countryText = text("country", true, 16);
    let country: string | undefined;
    if (countryText !== undefined) {
      country = countryText.trim().toUpperCase();
      if (!/^[A-Z]{2}$/.test(country) || !isCountryCode(country)) {
        errors.push(`country ${show(countryText)} is not an ISO 3166-1 alpha-2 code`);
      }
    }
    const createdAt = timestamp("created_at", "sql");
    if (errors.length > 0 || !domain || !name || !country) return { ok: false, errors, domain };
    const record: UniversityRecord = { type: "university", domain, name, country };
    if (createdAt) record.created_at = createdAt;
    return { ok: true, record };
  }

  const sourceId = text("source_id", true, 200)?.trim();
  const domain = domainOf();
  const statusText = text("status", true, 32);
  const status = statusText?.trim().toLowerCase() as ScanStatus | undefined;
  if (statusText !== undefined && !STATUSES.includes(status as ScanStatus)) {
    errors.push(`status ${show(statusText)} is not one of ${STATUSES.join(", ")}`);
  }
  const startedAt = timestamp("started_at", "iso");
  const completedAt = timestamp("completed_at", "iso");
  const evidence = evidenceText(v.evidence, csv, errors);
  const profileText = text("profile", false, 200);
  const profile = profileText === undefined ? UNKNOWN_PROFILE : canonicalProfile(profileText);
  if (profile === null) {
    errors.push(
      `profile ${show(profileText)} is not ${UNKNOWN_PROFILE} or comma-separated parts of ${PROFILE_PART_NAMES.join(", ")}`,
    );
  }
  const rubricVersion = positiveInteger("rubric_version", v.rubric_version, csv, errors);

  // The record in its final shape from the start (every score null), filled in place: one object per scan.
  const record = {
    type: "scan",
    source_id: sourceId as string,
    domain: domain as string,
    status: status as ScanStatus,
    started_at: startedAt ?? null,
    completed_at: completedAt ?? null,
    evidence,
    profile: profile ?? UNKNOWN_PROFILE,
    rubric_version: rubricVersion,
  } as ValidScan;
  const scores = record as unknown as Record<ScoreName, number | null>;
  for (const name of SCORE_NAMES) scores[name] = null;
  let anyScore = false;
  for (const key of keys) {
    if (!SCORE_SET.has(key)) continue;
    const raw = v[key];
    if (raw === null || raw === undefined) continue;
    let n: number;
    /** The number as written, where it is known (a CSV cell; the JSON text, asked for only at the bounds). */
    let written: string | undefined;
    if (csv && typeof raw === "string") {
      if (!CSV_SCORE.test(raw)) {
        errors.push(
          `${key} ${show(raw)} is not a number (digits with an optional decimal point, as in 72.5)`,
        );
        continue;
      }
      n = Number(raw);
      written = raw;
    } else if (typeof raw === "number") {
      n = raw;
      // A double of 100 or -0 may stand for a number beyond the bounds as written (100 only for one written with
      // 17 or more significant digits, so with a run of 9 digits at least): then, and for a refusal's message,
      // the number is read from the text.
      const source = options.source;
      if (
        source !== undefined &&
        (!(n >= 0 && n <= 100) || Object.is(n, -0) || (n === 100 && LONG_DIGIT_RUN.test(source)))
      )
        written = jsonMemberText(source, key);
    } else {
      errors.push(`${key} ${show(raw)} is not a number`);
      continue;
    }
    const inRange =
      written === undefined ? Number.isFinite(n) && n >= 0 && n <= 100 : writtenScoreInRange(written);
    if (!inRange) {
      errors.push(`${key} ${written ?? raw} is outside 0..100`);
      continue;
    }
    scores[key as ScoreName] = roundScore(n);
    anyScore = true;
  }

  if (status === "completed") {
    if (completedAt === null) errors.push("missing required field completed_at (the scan is completed)");
  } else if (status && STATUSES.includes(status)) {
    if (anyScore) errors.push(`a ${status} scan carries no scores (only completed scans do)`);
    if (completedAt && status !== "failed") errors.push(`a ${status} scan has no completed_at`);
  }
  if (startedAt && completedAt && startedAt > completedAt) {
    errors.push(`started_at ${startedAt} is after completed_at ${completedAt}`);
  }
  // Without derivation the scores are stored exactly as given (fixtures with a missing composite or overall).
  if (status === "completed" && errors.length === 0 && options.deriveScores !== false) {
    fillDerivedScores(scores);
    if (typeof scores.overall_score !== "number") {
      errors.push("a completed scan needs overall_score, or sub-scores to derive it from");
    }
  }
  if (errors.length > 0 || !sourceId || !domain || !status) return { ok: false, errors };
  return { ok: true, record };
}

/** A positive integer field (a digit string in CSV), or null when absent. */
function positiveInteger(key: string, raw: unknown, csv: boolean, errors: string[]): number | null {
  if (raw === undefined || raw === null || raw === "") return null;
  const n = csv && typeof raw === "string" && /^[0-9]{1,9}$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > 1e9) {
    errors.push(`${key} ${show(raw)} is not a positive integer`);
    return null;
  }
  return n;
}

/** A scan's evidence as JSON text, or null when there is none; a CSV cell holds the JSON text of the object. */
function evidenceText(raw: unknown, csv: boolean, errors: string[]): string | null {
  if (raw === undefined || raw === null || raw === "") return null;
  let value = raw;
  if (csv && typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      errors.push("evidence is not valid JSON");
      return null;
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    errors.push("evidence must be a JSON object");
    return null;
  }
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    errors.push("evidence cannot be written as JSON");
    return null;
  }
  if (text.length > EVIDENCE_MAX_CHARS) {
    errors.push(`evidence takes ${text.length} characters as JSON, more than ${EVIDENCE_MAX_CHARS}`);
    return null;
  }
  return text;
}
