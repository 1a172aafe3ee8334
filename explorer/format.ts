/** Pure formatting of the explorer: numbers, ranks, durations, check results, CSV. No DOM here. */

export const fmt = (v: number | null | undefined): string => (v == null ? "—" : v.toFixed(1));

/** A signed change with a real minus sign: "+5.0", "−0.1", "0.0"; "—" when not comparable. */
export const signed = (v: number | null | undefined): string =>
  v == null ? "—" : v > 0 ? `+${v.toFixed(1)}` : v < 0 ? `−${(-v).toFixed(1)}` : "0.0";

const ORDINAL: Record<string, string> = { one: "st", two: "nd", few: "rd", other: "th" };
const ordinalRules = new Intl.PluralRules("en", { type: "ordinal" });

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 112th. */
export const ordinal = (n: number): string => `${n}${ORDINAL[ordinalRules.select(n)] ?? "th"}`;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

/** A wait in words: "40 seconds", "55 minutes", "1 hour", "2 hours 5 minutes" (rounded up to the unit shown). */
export function inWords(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return plural(s, "second");
  const minutes = Math.ceil(s / 60);
  if (minutes <= 60) return plural(minutes, "minute");
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? plural(hours, "hour") : `${plural(hours, "hour")} ${plural(rest, "minute")}`;
}

let regions: Intl.DisplayNames | null | undefined;
/** The English name of an ISO 3166-1 alpha-2 code ("NL" → "Netherlands"); the code when unknown. */
export function countryName(code: string): string {
  if (regions === undefined) {
    try {
      regions = new Intl.DisplayNames(["en"], { type: "region" });
    } catch {
      regions = null;
    }
  }
  try {
    return regions?.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

export type CheckResult = "fail" | "partial" | "pass";

/**
 * A check's result from its points: all of them earned (or no penalty) passes; some earned is partial; none, or
 * a penalty, fails.
 */
export function checkResult(c: { points: number; max: number }): CheckResult {
  if (c.points < 0) return "fail";
  if (c.points >= c.max) return "pass";
  return c.points > 0 ? "partial" : "fail";
}

const number = (n: number) => (n < 0 ? `−${-n}` : String(n));

/** "3 of 5"; a modifier without a maximum shows its penalty: "−5 (penalty)", or "0 (no penalty)". */
export function pointsText(c: { points: number; max: number }): string {
  if (c.max > 0) return `${number(c.points)} of ${number(c.max)}`;
  return c.points < 0 ? `${number(c.points)} (penalty)` : `${number(c.points)} (no penalty)`;
}

export type Row = Record<string, unknown>;

/** Nested objects as dotted columns: `{university: {name}}` → `university.name`. */
export function flatten(row: Row, prefix = "", out: Row = {}): Row {
  for (const [k, v] of Object.entries(row)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === "object" && !Array.isArray(v)) flatten(v as Row, key, out);
    else out[key] = Array.isArray(v) ? JSON.stringify(v) : v;
  }
  return out;
}

const cell = (v: unknown): string => {
  const text = v === null || v === undefined ? "" : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** RFC 4180 CSV of rows (flattened), every column any row has, in first-seen order; CRLF line ends. */
export function toCsv(rows: Row[]): string {
  const flat = rows.map((r) => flatten(r));
  const columns = [...new Set(flat.flatMap((r) => Object.keys(r)))];
  const lines = [columns.map(cell).join(",")];
  for (const r of flat) lines.push(columns.map((c) => cell(r[c])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
