import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { checkTable, earned } from "./rubric/check-table.ts";
import { scoredFrom, tiered } from "./rubric/points.ts";

const S = "tech_sitemap_score" as const;

export const SITEMAP_CHECKS = checkTable(S, "rfc9309", {
  robotsPresent: {
    id: "robots.present",
    label: "robots.txt",
    max: 25,
    earns:
      "/robots.txt answers 200 with a robots.txt (not an HTML page: a site answering every path with a page has none)",
    remediation: "Publish /robots.txt as text/plain.",
  },
  robotsAllowsHome: {
    id: "robots.allows-home",
    label: "robots.txt allows the home page",
    max: 25,
    earns: "robots.txt lets unirank and * fetch the home page (no robots.txt allows everything)",
    remediation: "Do not disallow the whole site in robots.txt.",
  },
  sitemapDeclared: {
    id: "robots.sitemap-declared",
    label: "Sitemap declared in robots.txt",
    max: 20,
    earns: "robots.txt has a Sitemap: line",
    remediation: "Add a Sitemap: line to robots.txt.",
  },
  sitemapFound: {
    id: "sitemap.found",
    label: "Sitemap answers",
    max: 15,
    earns:
      "the sitemap (declared, else /sitemap.xml) answers 200 with XML or a text list of URLs, not an HTML page",
    remediation: "Publish /sitemap.xml.",
    reference: "sitemaps",
  },
  sitemapValid: {
    id: "sitemap.valid",
    label: "Sitemap valid",
    max: 15,
    earns: "it is a urlset or sitemapindex with at least one <loc> (or a text sitemap with at least one URL)",
    remediation: "Make the sitemap a valid urlset or sitemapindex.",
    reference: "sitemaps",
  },
});

export const WEB_SIZE_CHECKS = checkTable("webo_size_score", "unirank", {
  sitemapUrls: {
    id: "size.sitemap-urls",
    label: "Pages listed in the sitemap",
    max: 100,
    earns:
      "page URLs the sitemap lists (an index: those of its first 3 child sitemaps, itself and other indexes not counted; at most 50,000 a file): ≥ 50,000 100; ≥ 10,000 80; ≥ 1,000 60; ≥ 100 40; ≥ 10 20; ≥ 1 10; none 0",
    remediation: "List every public page in the sitemap.",
  },
});

/** tech_sitemap_score: robots.txt present and sane, a sitemap declared, found and valid. */
export function scoreSitemap(o: Observations): ScoredPart {
  const C = SITEMAP_CHECKS;
  const r = o.robots;
  const m = o.sitemap;
  const notFile = (status: number | null, type: string | null | undefined, what: string) =>
    status === 200
      ? `answered 200 with ${type ?? "no content type"}, not a ${what}`
      : `status ${status ?? "none"}`;
  return scoredFrom(S, [
    earned(
      C.robotsPresent,
      r.found ? 25 : 0,
      r.found
        ? "robots.txt answered 200"
        : `robots.txt not found (${notFile(r.status, r.content_type, "robots.txt")})`,
    ),
    earned(
      C.robotsAllowsHome,
      r.allows_home ? 25 : 0,
      r.allows_home ? "crawlers may fetch the home page" : "robots.txt forbids the home page",
    ),
    earned(
      C.sitemapDeclared,
      r.sitemaps.length > 0 ? 20 : 0,
      r.sitemaps.length > 0 ? `Sitemap: ${r.sitemaps.join(", ")}` : "no Sitemap line",
    ),
    earned(
      C.sitemapFound,
      m.found ? 15 : 0,
      m.found
        ? `${m.url} answered 200`
        : m.content_type !== undefined
          ? `${m.url}: not a sitemap (${m.content_type ?? "no content type"})`
          : "no sitemap found",
    ),
    earned(
      C.sitemapValid,
      m.valid ? 15 : 0,
      m.valid ? `${m.urls} URLs listed` : "no urlset or sitemapindex with a <loc>",
    ),
  ]);
}

/** webo_size_score, approximated by the URLs the sitemap lists (no search engine is asked). */
export function scoreWebSize(o: Observations): ScoredPart {
  const n = o.sitemap.urls;
  const m = o.sitemap;
  return scoredFrom("webo_size_score", [
    earned(
      WEB_SIZE_CHECKS.sitemapUrls,
      tiered(n, [
        [50_000, 100],
        [10_000, 80],
        [1_000, 60],
        [100, 40],
        [10, 20],
        [1, 10],
      ]),
      m.index ? `${n} URLs listed in ${m.children ?? 0} child sitemap(s)` : `${n} URLs listed`,
    ),
  ]);
}
