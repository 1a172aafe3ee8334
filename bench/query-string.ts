/**
 * The query-string parser's cost against the query's length, however often a name repeats: prints the best of
 * five parses of 20,000 and of 80,000 repetitions and their ratio (linear is about 4, quadratic about 16).
 *
 *   bun bench/query-string.ts
 */
import { parseQueryString } from "../src/http/query-string.ts";

const cost = (search: string) => {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    parseQueryString(search);
    best = Math.min(best, performance.now() - started);
  }
  return best;
};

for (const unit of ["&x", "&x=%41"]) {
  const small = cost(`limit=1${unit.repeat(20_000)}`);
  const large = cost(`limit=1${unit.repeat(80_000)}`);
  process.stdout.write(
    `${JSON.stringify(unit).padEnd(9)} 20,000: ${small.toFixed(2)} ms  80,000: ${large.toFixed(2)} ms  ratio ${(large / small).toFixed(1)}\n`,
  );
}
