/** The middle value of `xs` (the upper of the two middle ones for an even count); NaN for none. */
export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
