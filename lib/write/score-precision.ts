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

const NUMBER_TEXT = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * Whether a number as written lies within 0..100, decided on its decimal text exactly, not on the nearest double
 * (`100.000000000000000000001` is above 100 though it parses to 100; `-1e-400` is below 0 though it parses to -0).
 * False for text that is no number.
 */
export function writtenScoreInRange(text: string): boolean {
  const m = NUMBER_TEXT.exec(text.trim());
  if (!m || (m[2] === "" && !m[3])) return false;
  const [, sign, whole = "", fraction = "", exponent = "0"] = m;
  // The significant digits, and the power of ten of the first one plus one (its magnitude).
  const digits = `${whole}${fraction}`;
  const lead = digits.search(/[1-9]/);
  if (lead < 0) return true; // zero, whatever its sign
  if (sign === "-") return false;
  const significant = digits.slice(lead).replace(/0+$/, "");
  const magnitude = whole.length - lead + Number(exponent);
  // The value lies in [10^(magnitude-1), 10^magnitude): at most 100 when below 100, or exactly 1 × 10^2.
  return magnitude <= 2 || (magnitude === 3 && significant === "1");
}
