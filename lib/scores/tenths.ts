/**
 * Scores kept as 16-bit codes: a score of one decimal in 0–100 as its tenths (0–1000), an unmeasured one as
 * `NULL_CODE`. unirank's writers round every score to a tenth (`lib/write/score-precision.ts`), so this says
 * almost every score exactly, in a quarter of a 64-bit number's room.
 */

/** The code of a score not measured. */
export const NULL_CODE = 0xffff;

/** The code of a score, or -1 when a code cannot say it exactly (not a tenth, or outside 0–100). */
export function tenthsCode(value: number | null): number {
  if (value === null) return NULL_CODE;
  const k = Math.round(value * 10);
  return k >= 0 && k <= 1000 && k / 10 === value ? k : -1;
}
