import { RANKING_SORTS, type RankingSort } from "../../lib/scores/catalogue.ts";
import { api } from "../api.ts";
import { type Column, h, link, table, uniLink } from "../dom.ts";
import { downloads } from "../download.ts";
import { countryName, fmt } from "../format.ts";
import { inSentence, isRankingSort, RANKING_SORT_NAMES, sortLabel } from "../labels.ts";
import { profileText } from "../profiles.ts";
import type { CountryCount, PageMeta, RankingEntry, RankingMeta, University } from "../types.ts";
import { field, input, pager, type Query, select, stateForm, whole } from "./forms.ts";

/** The composite a ranking row carries for each sort. */
const VALUE: Record<RankingSort, keyof RankingEntry> = {
  overall: "overall_score",
  webometrics: "webometrics_score",
  technical: "technical_score",
  research: "research_score",
  presence: "presence_score",
};

/** The country selector: every country with its number of universities, by name. */
export function countryOptions(counts: CountryCount[], all: string): [string, string][] {
  const total = counts.reduce((n, c) => n + c.universities, 0);
  return [
    ["", `${all} (${total.toLocaleString("en")})`],
    ...counts
      .map((c) => ({ ...c, name: countryName(c.country) }))
      .sort((a, b) => a.name.localeCompare(b.name, "en"))
      .map((c): [string, string] => [
        c.country,
        `${c.name}${c.name === c.country ? "" : ` (${c.country})`} · ${c.universities.toLocaleString("en")}`,
      ]),
  ];
}

/**
 * Which universities the ranking holds (like with like, docs/scores.md): those measured the same way, and links
 * to the others' rankings; or, for every profile, that they were measured differently.
 */
function profileNote(q: Query, meta: RankingMeta): HTMLElement {
  const to = (p: string) => {
    const next = new URLSearchParams(q);
    next.set("profile", p);
    next.delete("page");
    return `#/rankings?${next}`;
  };
  const how = link("#/methodology", "how");
  const others = Object.entries(meta.profiles).filter(([p]) => p !== meta.profile);
  const count = (n: number) => `${n.toLocaleString("en")} universit${n === 1 ? "y" : "ies"}`;
  if (meta.profile === null) {
    return h(
      "p",
      { id: "profile-note" },
      "Every profile together: universities measured in different ways stand side by side (",
      how,
      ").",
    );
  }
  return h(
    "p",
    { id: "profile-note" },
    `Ranked among universities measured the same way: ${profileText(meta.profile)} (`,
    how,
    ").",
    ...(others.length === 0
      ? []
      : [
          " Measured otherwise: ",
          ...others.flatMap(([p, n], i) => [
            i > 0 ? " · " : "",
            link(to(p), `${profileText(p)} (${count(n)})`),
          ]),
          " · ",
          link(to("all"), "all together"),
          ".",
        ]),
  );
}

export async function rankings(q: Query): Promise<HTMLElement[]> {
  const page = whole(q, "page", 1);
  const limit = [20, 50, 100].includes(Number(q.get("limit"))) ? Number(q.get("limit")) : 50;
  const search = q.get("search") ?? "";
  const asked = q.get("sort");
  const sort: RankingSort = isRankingSort(asked) ? asked : "overall";
  const country = (q.get("country") ?? "").toUpperCase();
  const min = q.get("min_score") ?? "";
  const max = q.get("max_score") ?? "";
  const profile = q.get("profile") ?? "";
  const filters: Record<string, string | number> = { page, limit, sort };
  if (profile) filters.profile = profile;
  if (country) filters.country = country;
  if (min) filters.min_score = min;
  if (max) filters.max_score = max;
  const [{ data, meta }, countries, found] = await Promise.all([
    api<RankingEntry[], RankingMeta>("/rankings", filters),
    api<CountryCount[]>("/countries"),
    search ? api<University[], PageMeta>("/universities", { search, country, limit: 20 }) : null,
  ]);
  const where = country ? ` in ${countryName(country)}` : "";
  const matches = found
    ? [
        table(
          `${found.meta.total.toLocaleString("en")} universit${found.meta.total === 1 ? "y matches" : "ies match"} “${search}”${where}${found.meta.total > found.data.length ? ` (first ${found.data.length})` : ""}`,
          [{ label: "University", name: true }, { label: "Country" }, { label: "Domain" }],
          found.data.map((u) => [uniLink(u), u.country, u.domain]),
          { id: "matches" },
        ),
      ]
    : [];
  const others = RANKING_SORT_NAMES.filter((s) => s !== sort);
  const columns: Column[] = [
    { label: "#", numeric: true },
    { label: "University", name: true },
    { label: sortLabel(sort), numeric: true, main: true, sort: "descending" },
    { label: "Country" },
    ...others.map((s) => ({ label: sortLabel(s), numeric: true })),
  ];
  return [
    h("h1", {}, "Rankings"),
    stateForm(
      "rankings",
      q,
      [
        field(
          "Rank by",
          select(
            "sort",
            sort,
            RANKING_SORT_NAMES.map((s) => [s, sortLabel(s)]),
          ),
        ),
        field("Country", select("country", country, countryOptions(countries.data, "All countries"))),
        field("Lowest score", input("min_score", min, { type: "number", min: "0", max: "100", step: "0.1" })),
        field(
          "Highest score",
          input("max_score", max, { type: "number", min: "0", max: "100", step: "0.1" }),
        ),
        field("Find a university", input("search", search, { type: "search" })),
        field(
          "Rows per page",
          select(
            "limit",
            String(limit),
            ["20", "50", "100"].map((v) => [v, v]),
          ),
        ),
        field("Page", input("page", String(page), { type: "number", min: "1", inputmode: "numeric" })),
      ],
      "Rankings: sort, filters, search and paging",
      ["profile"],
    ),
    profileNote(q, meta),
    ...matches,
    table(
      `Universities by ${inSentence(RANKING_SORTS[sort])}${where}, page ${meta.page} (${meta.total.toLocaleString("en")} ranked)`,
      columns,
      data.map((r) => [
        r.rank,
        uniLink(r),
        fmt(r[VALUE[sort]] as number | null),
        r.country,
        ...others.map((s) => fmt(r[VALUE[s]] as number | null)),
      ]),
      { id: "ranking" },
    ),
    downloads(
      `unirank-rankings-${sort}${country ? `-${country.toLowerCase()}` : ""}-page-${meta.page}`,
      "this page",
      () => data,
    ),
    pager("rankings", q, meta),
  ];
}
