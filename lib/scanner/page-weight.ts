import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { check, scoredFrom, tiered } from "./points.ts";

const S = "green_page_weight_score" as const;
const KB = 1024;

/** green_page_weight_score: bytes of the home page's HTML document (a truncated one earns nothing). */
export function scorePageWeight(o: Observations): ScoredPart {
  const p = o.pages[0];
  const bytes = p?.bytes ?? 0;
  const points =
    !p || p.truncated
      ? 0
      : tiered(-bytes, [
          [-100 * KB, 100],
          [-500 * KB, 80],
          [-1024 * KB, 60],
          [-2048 * KB, 40],
          [-4096 * KB, 20],
        ]);
  return scoredFrom(S, [
    check(
      S,
      "weight.home-html",
      "Home page weight",
      points,
      100,
      !p ? "no home page" : p.truncated ? `more than ${bytes} bytes (cut at the byte cap)` : `${bytes} bytes`,
      "Cut the home page's HTML below 100 KB.",
    ),
  ]);
}
