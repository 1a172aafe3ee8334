import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { check, scoredFrom } from "./points.ts";

const S = "tech_seo_score" as const;

/** tech_seo_score, on the home page: status, title, description, canonical link, one h1, indexable. */
export function scoreSeo(o: Observations): ScoredPart {
  const p = o.pages[0];
  const title = p?.title?.trim() ?? "";
  const desc = p?.description?.trim() ?? "";
  const robots = (p?.robots_meta ?? "").toLowerCase();
  const indexable = p !== undefined && !/\b(noindex|none)\b/.test(robots);
  const h1 = p?.h1_count ?? 0;
  return scoredFrom(S, [
    check(
      S,
      "seo.status-200",
      "Home page answers 200",
      p?.status === 200 ? 10 : 0,
      10,
      p ? `status ${p.status}` : "no home page",
      "Serve the home page with status 200.",
    ),
    check(
      S,
      "seo.title",
      "Title",
      title.length >= 10 && title.length <= 70 ? 20 : title ? 10 : 0,
      20,
      title ? `title of ${title.length} characters` : "no title",
      "Give the page a title of 10 to 70 characters.",
    ),
    check(
      S,
      "seo.description",
      "Meta description",
      desc.length >= 50 && desc.length <= 160 ? 20 : desc ? 10 : 0,
      20,
      desc ? `description of ${desc.length} characters` : "no meta description",
      "Add a meta description of 50 to 160 characters.",
    ),
    check(
      S,
      "seo.canonical",
      "Canonical link",
      p?.canonical ? 15 : 0,
      15,
      p?.canonical ? `canonical ${p.canonical}` : "no canonical link",
      'Add <link rel="canonical">.',
    ),
    check(
      S,
      "seo.h1",
      "One h1",
      h1 === 1 ? 15 : h1 > 1 ? 5 : 0,
      15,
      `${h1} h1 element(s)`,
      "Give the page exactly one h1 heading.",
    ),
    check(
      S,
      "seo.indexable",
      "Indexable",
      indexable ? 20 : 0,
      20,
      robots ? `robots: ${robots}` : "no robots directive",
      "Remove noindex from the home page.",
    ),
  ]);
}
