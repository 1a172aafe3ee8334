import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { checkTable, earned } from "./rubric/check-table.ts";
import { scoredFrom } from "./rubric/points.ts";

const S = "tech_seo_score" as const;

export const SEO_CHECKS = checkTable(S, "unirank", {
  status: {
    id: "seo.status-200",
    label: "Home page answers 200",
    max: 10,
    earns: "the home page answers 200",
    remediation: "Serve the home page with status 200.",
  },
  title: {
    id: "seo.title",
    label: "Title",
    max: 20,
    earns: "a title of 10–70 characters (10 for another length)",
    remediation: "Give the page a title of 10 to 70 characters.",
  },
  description: {
    id: "seo.description",
    label: "Meta description",
    max: 20,
    earns: "a meta description of 50–160 characters (10 for another length)",
    remediation: "Add a meta description of 50 to 160 characters.",
  },
  canonical: {
    id: "seo.canonical",
    label: "Canonical link",
    max: 15,
    earns: '<link rel="canonical">',
    remediation: 'Add <link rel="canonical">.',
  },
  h1: {
    id: "seo.h1",
    label: "One h1",
    max: 15,
    earns: "exactly one h1 (5 for several)",
    remediation: "Give the page exactly one h1 heading.",
  },
  indexable: {
    id: "seo.indexable",
    label: "Indexable",
    max: 20,
    earns: 'no noindex/none in <meta name="robots"> or X-Robots-Tag',
    remediation: "Remove noindex from the home page.",
  },
});

/** tech_seo_score, on the home page: status, title, description, canonical link, one h1, indexable. */
export function scoreSeo(o: Observations): ScoredPart {
  const C = SEO_CHECKS;
  const p = o.pages[0];
  const title = p?.title?.trim() ?? "";
  const desc = p?.description?.trim() ?? "";
  const robots = (p?.robots_meta ?? "").toLowerCase();
  const indexable = p !== undefined && !/\b(noindex|none)\b/.test(robots);
  const h1 = p?.h1_count ?? 0;
  return scoredFrom(S, [
    earned(C.status, p?.status === 200 ? 10 : 0, p ? `status ${p.status}` : "no home page"),
    earned(
      C.title,
      title.length >= 10 && title.length <= 70 ? 20 : title ? 10 : 0,
      title ? `title of ${title.length} characters` : "no title",
    ),
    earned(
      C.description,
      desc.length >= 50 && desc.length <= 160 ? 20 : desc ? 10 : 0,
      desc ? `description of ${desc.length} characters` : "no meta description",
    ),
    earned(
      C.canonical,
      p?.canonical ? 15 : 0,
      p?.canonical ? `canonical ${p.canonical}` : "no canonical link",
    ),
    earned(C.h1, h1 === 1 ? 15 : h1 > 1 ? 5 : 0, `${h1} h1 element(s)`),
    earned(C.indexable, indexable ? 20 : 0, robots ? `robots: ${robots}` : "no robots directive"),
  ]);
}
