import { CATEGORIES, CATEGORY_NAMES } from "../../lib/scores/catalogue.ts";
import { api } from "../api.ts";
import { h, link, table, uniLink } from "../dom.ts";
import { downloads } from "../download.ts";
import { fmt, signed } from "../format.ts";
import { categoryLabel, inSentence, isCategory } from "../labels.ts";
import type { Regression } from "../types.ts";
import { field, input, type Query, select, stateForm } from "./forms.ts";

export async function regressionsPage(q: Query): Promise<HTMLElement[]> {
  const days = q.get("days") ?? "30";
  const minDrop = q.get("min_drop") ?? "5";
  const asked = q.get("category");
  const category = isCategory(asked) ? asked : "overall";
  const { data, meta } = await api<Regression[], { total: number }>("/regressions", {
    days,
    min_drop: minDrop,
    category,
    limit: 100,
  });
  return [
    h("h1", {}, "Regressions"),
    stateForm(
      "regressions",
      q,
      [
        field("Days", input("days", days, { type: "number", min: "1", max: "365", inputmode: "numeric" })),
        field(
          "Minimum drop",
          input("min_drop", minDrop, {
            type: "number",
            min: "0",
            max: "100",
            step: "0.1",
            inputmode: "decimal",
          }),
        ),
        field(
          "Category",
          select(
            "category",
            category,
            CATEGORY_NAMES.map((c) => [c, categoryLabel(c)]),
          ),
        ),
      ],
      "Regression filters",
    ),
    table(
      `${meta.total} drop${meta.total === 1 ? "" : "s"} of the ${inSentence(CATEGORIES[category])} by at least ${minDrop} points in ${days} days${meta.total > data.length ? ` (the largest ${data.length})` : ""}`,
      [
        { label: "University", name: true },
        { label: "Drop", numeric: true, main: true, sort: "descending" },
        { label: "Now", numeric: true },
        { label: "Before", numeric: true },
        { label: "Country" },
        { label: "Scanned" },
        { label: "What changed" },
      ],
      data.map((r) => [
        uniLink(r.university),
        signed(-r.drop),
        fmt(r.current.score),
        fmt(r.previous.score),
        r.university.country,
        r.current.completed_at.slice(0, 10),
        link(`#/diff?a=${r.previous.scan_id}&b=${r.current.scan_id}`, "Scores and checks", {
          "aria-label": `Scores and checks that changed for ${r.university.name}`,
        }),
      ]),
      { id: "regressions" },
    ),
    downloads(`unirank-regressions-${category}-${days}d`, "these drops", () => data),
  ];
}
