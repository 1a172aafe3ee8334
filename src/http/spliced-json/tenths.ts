/**
 * Scores kept as 16-bit codes: a score of one decimal in 0–100 as its tenths (0–1000), an unmeasured one as
 * `NULL_CODE`. Ten times smaller than their JSON texts, and written back as those texts from one table.
 */

/** The code of a score not measured. */
export const NULL_CODE = 0xffff;

/** The JSON of each code of tenths, `k / 10`. */
const VALUE_TEXT: readonly string[] = Array.from({ length: 1001 }, (_, k) => JSON.stringify(k / 10));

/** The code of a score, or -1 when a code cannot say it exactly (not a tenth, or outside 0–100). */
export function tenthsCode(value: number | null): number {
  if (value === null) return NULL_CODE;
  const k = Math.round(value * 10);
  return k >= 0 && k <= 1000 && k / 10 === value ? k : -1;
}

/** The JSON of a code: the score as `JSON.stringify` writes it, or `null`. */
export const tenthsJson = (code: number): string =>
  code === NULL_CODE ? "null" : (VALUE_TEXT[code] as string);
