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

/**
 * The codes of `values[name]` for each of `names`, written at `out[at]` on: `NULL_CODE` for a null or missing value,
 * and for one a code cannot say (the answer is then false). `values` null: every value null.
 */
export function putTenthsCodes(
  values: Readonly<Record<string, unknown>> | null,
  names: readonly string[],
  out: Uint16Array,
  at: number,
): boolean {
  let exact = true;
  for (let i = 0; i < names.length; i++) {
    const value = values?.[names[i] as string];
    const code = tenthsCode(value == null ? null : Number(value));
    if (code < 0) exact = false;
    out[at + i] = code < 0 ? NULL_CODE : code;
  }
  return exact;
}
