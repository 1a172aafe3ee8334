/** Timestamps as the contract writes them. */

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** The last second formatted: answers of one second share their timestamp text. */
let lastSecond = Number.NaN;
let lastText = "";

/** `2026-03-01T12:00:00+00:00` (UTC, seconds precision). */
export function isoTimestamp(d: Date): string {
  const second = Math.floor(d.getTime() / 1000);
  if (second !== lastSecond) {
    lastText = formatTimestamp(d);
    lastSecond = second;
  }
  return lastText;
}

function formatTimestamp(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(
    d.getUTCMinutes(),
  )}:${pad(d.getUTCSeconds())}+00:00`;
}

/** `2026-03-01 12:00:00`, the University `created_at` form. */
export function sqlTimestamp(d: Date): string {
  return isoTimestamp(d).slice(0, 19).replace("T", " ");
}

/** `2026-03-01`. */
export function isoDate(timestamp: string): string {
  return timestamp.slice(0, 10);
}

/** Parses ISO 8601 (with `Z` or an offset) or `YYYY-MM-DD HH:MM:SS` (taken as UTC); null when invalid. */
export function parseTimestamp(text: string): Date | null {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(
      text.trim(),
    );
  if (!m) return null;
  const [, y, mo, d, h = "00", mi = "00", s = "00", zone] = m;
  const offset = zone && zone !== "Z" ? zone.replace(/^([+-]\d{2})(\d{2})$/, "$1:$2") : "+00:00";
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
  if (Number.isNaN(date.getTime())) return null;
  // Reject rolled-over dates such as 2026-02-30.
  if (!zone || zone === "Z" || /^[+-]00:?00$/.test(zone)) {
    if (date.getUTCDate() !== Number(d) || date.getUTCMonth() + 1 !== Number(mo)) return null;
  }
  return date;
}

const CANONICAL = /^(\d{4})-(\d{2})-(\d{2})([T ])(\d{2}):(\d{2}):(\d{2})(\+00:00)?$/;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * `text` itself when it is already a valid timestamp in the form `form` writes (`isoTimestamp` or `sqlTimestamp`),
 * else null: the common case of an import, checked without building a Date.
 */
export function canonicalTimestamp(text: string, form: "iso" | "sql"): string | null {
  const m = CANONICAL.exec(text);
  if (!m || (form === "iso" ? m[4] !== "T" || !m[8] : m[4] !== " " || m[8])) return null;
  const y = +m[1]!;
  const mo = +m[2]!;
  const d = +m[3]!;
  const leap = mo === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (mo < 1 || mo > 12 || d < 1 || d > DAYS[mo - 1]! + (leap ? 1 : 0)) return null;
  return +m[5]! < 24 && +m[6]! < 60 && +m[7]! < 60 ? text : null;
}

/** A clock, injectable everywhere time matters. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
