import { CATEGORIES, CATEGORY_NAMES } from "../../lib/scores/catalogue.ts";
import { api } from "../api.ts";
import { histogram } from "../charts.ts";
import { h, link, table, uniLink } from "../dom.ts";
import { fmt, signed } from "../format.ts";
import { categoryLabel, inSentence, scoreLabel } from "../labels.ts";
import type {
  DistributionBin,
  DistributionMeta,
  PageMeta,
  RankingEntry,
  Regression,
  University,
} from "../types.ts";
import { field, type Query, select, stateForm } from "./forms.ts";

const SCORES = new Set<string>(Object.values(CATEGORIES));

export async function overview(q: Query): Promise<HTMLElement[]> {
  const asked = q.get("score") ?? "";
  const score = SCORES.has(asked) ? asked : "overall_score";
  const [all, dist, top, drops] = await Promise.all([
    api<University[], PageMeta>("/universities", { limit: 1 }),
    api<DistributionBin[], DistributionMeta>("/distribution", { score, bins: 20 }),
    api<RankingEntry[]>("/rankings", { limit: 10 }),
    api<Regression[]>("/regressions", { limit: 5 }),
  ]);
  const stat = (t: string, v: string) => h("div", { class: "stat" }, h("dt", {}, t), h("dd", {}, v));
  return [
    h("h1", {}, "Overview"),
    h(
      "dl",
      { class: "stats" },
      stat("Universities", all.meta.total.toLocaleString("en")),
      stat("With a completed scan", dist.meta.measured.toLocaleString("en")),
      stat(`Mean ${inSentence(score)}`, fmt(dist.meta.mean)),
      stat(`Median ${inSentence(score)}`, fmt(dist.meta.median)),
    ),
    h(
      "section",
      { "aria-labelledby": "dist-h" },
      h("h2", { id: "dist-h" }, "Distribution"),
      stateForm(
        "",
        q,
        [
          field(
            "Score",
            select(
              "score",
              score,
              CATEGORY_NAMES.map((c) => [CATEGORIES[c], categoryLabel(c)]),
            ),
          ),
        ],
        "Distribution score",
      ),
      histogram(`Universities by ${inSentence(score)} (latest completed scan, 20 bins)`, dist.data),
    ),
    h(
      "div",
      { class: "two" },
      h(
        "section",
        {},
        h("h2", {}, "Top universities"),
        table(
          `Top 10 by ${inSentence("overall_score")}`,
          [
            { label: "#", numeric: true },
            { label: "University", name: true },
            { label: scoreLabel("overall_score"), numeric: true, main: true, sort: "descending" },
            { label: "Country" },
          ],
          top.data.map((r) => [r.rank, uniLink(r), fmt(r.overall_score), r.country]),
          { id: "top" },
        ),
        link("#/rankings", "All rankings →"),
      ),
      h(
        "section",
        {},
        h("h2", {}, "Latest regressions"),
        drops.data.length === 0
          ? h("p", {}, "No overall score dropped 5 points or more in the last 30 days.")
          : table(
              "Largest overall drops, last 30 days",
              [
                { label: "University", name: true },
                { label: "Drop", numeric: true, main: true, sort: "descending" },
                { label: "Now", numeric: true },
              ],
              drops.data.map((r) => [uniLink(r.university), signed(-r.drop), fmt(r.current.score)]),
              { id: "drops" },
            ),
        link("#/regressions", "All regressions →"),
      ),
    ),
  ];
}
