/**
 * Lighthouse's log-normal scoring curve: a metric at its `p10` control point scores 0.90, at its `median` 0.50,
 * and the score falls smoothly towards 0 beyond. Same formula and clamps as Lighthouse's `getLogNormalScore`.
 */
export interface LogNormalCurve {
  p10: number;
  median: number;
}

const INVERSE_ERFC_ONE_FIFTH = 0.9061938024368232;

/** Abramowitz–Stegun 7.1.26, the approximation Lighthouse uses (error below 1.5e-7). */
function erf(x: number): number {
  const sign = Math.sign(x);
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const y = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return sign * (1 - y * Math.exp(-a * a));
}

/** The 0–1 score of `value` on `curve` (lower values are better). */
export function logNormalScore(curve: LogNormalCurve, value: number): number {
  if (value <= 0) return 1;
  const xLogRatio = Math.log(Math.max(Number.MIN_VALUE, value / curve.median));
  const p10LogRatio = -Math.log(Math.max(Number.MIN_VALUE, curve.p10 / curve.median));
  const standardized = (xLogRatio * INVERSE_ERFC_ONE_FIFTH) / p10LogRatio;
  const complementary = (1 - erf(standardized)) / 2;
  if (value <= curve.p10) return Math.max(0.9, Math.min(1, complementary));
  if (value <= curve.median) return Math.max(0.5, Math.min(0.8999999999999999, complementary));
  return Math.max(0, Math.min(0.49999999999999994, complementary));
}
