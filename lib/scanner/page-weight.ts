import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { checkTable, earned } from "./rubric/check-table.ts";
import { scoredFrom, tiered } from "./rubric/points.ts";

const S = "green_page_weight_score" as const;
const KB = 1024;

export const PAGE_WEIGHT_CHECKS = checkTable(S, "unirank", {
  homeHtml: {
    id: "weight.home-html",
    label: "Home page weight",
    max: 100,
    earns:
      "bytes of the home page's HTML: ≤ 100 KiB 100; ≤ 500 KiB 80; ≤ 1 MiB 60; ≤ 2 MiB 40; ≤ 4 MiB 20; more, or cut at the byte cap, 0",
    remediation: "Cut the home page's HTML below 100 KB.",
  },
});

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
    earned(
      PAGE_WEIGHT_CHECKS.homeHtml,
      points,
      !p ? "no home page" : p.truncated ? `more than ${bytes} bytes (cut at the byte cap)` : `${bytes} bytes`,
    ),
  ]);
}
