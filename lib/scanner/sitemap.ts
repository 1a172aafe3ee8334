import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { check, scoredFrom, tiered } from "./points.ts";

const S = "tech_sitemap_score" as const;

/** tech_sitemap_score: robots.txt present and sane, a sitemap declared, found and valid. */
export function scoreSitemap(o: Observations): ScoredPart {
  const r = o.robots;
  const m = o.sitemap;
  return scoredFrom(S, [
    check(
      S,
      "robots.present",
      "robots.txt",
      r.found ? 25 : 0,
      25,
      r.found ? "robots.txt answered 200" : `robots.txt not found (status ${r.status ?? "none"})`,
      "Publish /robots.txt.",
    ),
    check(
      S,
      "robots.allows-home",
      "robots.txt allows the home page",
      r.allows_home ? 25 : 0,
      25,
      r.allows_home ? "crawlers may fetch the home page" : "robots.txt forbids the home page",
      "Do not disallow the whole site in robots.txt.",
    ),
    check(
      S,
      "robots.sitemap-declared",
      "Sitemap declared in robots.txt",
      r.sitemaps.length > 0 ? 20 : 0,
      20,
      r.sitemaps.length > 0 ? `Sitemap: ${r.sitemaps.join(", ")}` : "no Sitemap line",
      "Add a Sitemap: line to robots.txt.",
    ),
    check(
      S,
      "sitemap.found",
      "Sitemap answers",
      m.found ? 15 : 0,
      15,
      m.found ? `${m.url} answered 200` : "no sitemap found",
      "Publish /sitemap.xml.",
    ),
    check(
      S,
      "sitemap.valid",
      "Sitemap valid",
      m.valid ? 15 : 0,
      15,
      m.valid ? `${m.urls} URLs listed` : "no urlset or sitemapindex with a <loc>",
      "Make the sitemap a valid urlset or sitemapindex.",
    ),
  ]);
}

/** webo_size_score, approximated by the URLs the sitemap lists (no search engine is asked). */
export function scoreWebSize(o: Observations): ScoredPart {
  const n = o.sitemap.urls;
  const W = "webo_size_score" as const;
  return scoredFrom(W, [
    check(
      W,
      "size.sitemap-urls",
      "Pages listed in the sitemap",
      tiered(n, [
        [50_000, 100],
        [10_000, 80],
        [1_000, 60],
        [100, 40],
        [10, 20],
        [1, 10],
      ]),
      100,
      `${n} URLs listed`,
      "List every public page in the sitemap.",
    ),
  ]);
}
