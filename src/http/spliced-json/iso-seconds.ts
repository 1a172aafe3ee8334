/**
 * Timestamps in the form unirank writes them (`2026-03-01T12:00:00+00:00`, `lib/time/format.ts`) kept as seconds
 * since 1970 in 32 bits, and written back as the same text: a quarter of the room of the text itself.
 */

const LENGTH = "2026-03-01T12:00:00+00:00".length;
const DAY = 86_400;

const digit = (text: string, at: number): number => text.charCodeAt(at) - 0x30;
const number = (text: string, at: number, width: number): number => {
  let n = 0;
  for (let i = 0; i < width; i++) {
    const d = digit(text, at + i);
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
};
const daysIn = (year: number, month: number): number =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : 30 + ((month + (month >> 3)) & 1);

/** The seconds of a timestamp in that form from 1970 to 2106, or -1 for any other text (which is kept as text). */
export function isoSeconds(text: string): number {
  if (text.length !== LENGTH || !text.endsWith("+00:00")) return -1;
  if (text[4] !== "-" || text[7] !== "-" || text[10] !== "T" || text[13] !== ":" || text[16] !== ":")
    return -1;
  const year = number(text, 0, 4);
  const month = number(text, 5, 2);
  const day = number(text, 8, 2);
  const hour = number(text, 11, 2);
  const minute = number(text, 14, 2);
  const second = number(text, 17, 2);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return -1;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return -1;
  const seconds = Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
  return seconds <= 0xffff_ffff ? seconds : -1;
}

const two = (n: number, out: Uint8Array, at: number): number => {
  out[at] = 0x30 + ((n / 10) | 0);
  out[at + 1] = 0x30 + (n % 10);
  return at + 2;
};

/** The text of `isoSeconds` written as ASCII at `at` of `out` (25 bytes); returns where it ends. */
export function writeIsoSeconds(seconds: number, out: Uint8Array, at: number): number {
  const days = Math.floor(seconds / DAY);
  let rest = seconds - days * DAY;
  // The civil date of a day count (the proleptic Gregorian calendar, in eras of 400 years from 0000-03-01).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  at = two((year / 100) | 0, out, at);
  at = two(year % 100, out, at);
  out[at++] = 0x2d; // -
  at = two(month, out, at);
  out[at++] = 0x2d;
  at = two(day, out, at);
  out[at++] = 0x54; // T
  const hour = (rest / 3600) | 0;
  rest -= hour * 3600;
  at = two(hour, out, at);
  out[at++] = 0x3a; // :
  at = two((rest / 60) | 0, out, at);
  out[at++] = 0x3a;
  at = two(rest % 60, out, at);
  for (const c of "+00:00") out[at++] = c.charCodeAt(0);
  return at;
}
