import { CATEGORY_NAMES } from "../../lib/scores/catalogue.ts";
import { api } from "../api.ts";
import { h, table, uniLink } from "../dom.ts";
import { downloads } from "../download.ts";
import { fmt } from "../format.ts";
import { categoryLabel, isCategory } from "../labels.ts";
import type { LeaderboardEntry } from "../types.ts";
import type { Query } from "./forms.ts";

export async function leaderboards(q: Query): Promise<HTMLElement[]> {
  const asked = q.get("category");
  const category = isCategory(asked) ? asked : "overall";
  const limit = 25;
  const { data } = await api<LeaderboardEntry[]>(`/leaderboard/${category}`, { limit });
  return [
    h("h1", {}, "Leaderboards"),
    h(
      "nav",
      { class: "tabs", "aria-label": "Categories" },
      ...CATEGORY_NAMES.map((c) =>
        h(
          "a",
          { href: `#/leaderboards?category=${c}`, "aria-current": c === category ? "page" : undefined },
          categoryLabel(c),
        ),
      ),
    ),
    table(
      `Top ${limit} by ${categoryLabel(category)} score`,
      [
        { label: "#", numeric: true },
        { label: "University", name: true },
        { label: categoryLabel(category), numeric: true, main: true, sort: "descending" },
        { label: "Country" },
        { label: "Scanned" },
      ],
      data.map((r) => [r.rank, uniLink(r.university), fmt(r.score), r.university.country, r.scan_date]),
      { id: "leaderboard" },
    ),
    downloads(`unirank-leaderboard-${category}`, "this leaderboard", () => data),
  ];
}
