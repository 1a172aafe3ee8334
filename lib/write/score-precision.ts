/**
 * The precision rule of stored scores: one decimal. Every write path rounds a score to the nearest tenth of the
 * number as written (`33.333333` → 33.3, `72.45` → 72.5, `5e-324` → 0, `-0` → 0), half away from zero.
 */
export function roundScore(n: number): number {
  // Already a tenth (most scores): n * 10 lands on an integer.
  const tenths = n * 10;
  if (Number.isInteger(tenths)) return tenths === 0 ? 0 : tenths / 10;
  // The shortest decimal form of the double is the number as written; below 1e-6 it has an exponent (and is 0.0).
  const text = String(n);
  if (text.includes("e")) return 0;
  const rounded = Math.round(Number(`${text}e1`));
  return rounded === 0 ? 0 : rounded / 10;
}

/** A score in a CSV cell: plain decimal digits with an optional fraction (`50`, `50.5`); no sign, exponent or space. */
export const CSV_SCORE = /^\d+(?:\.\d+)?$/;
