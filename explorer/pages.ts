import type {
  DistributionBin,
  DistributionMeta,
  LeaderboardEntry,
  PageMeta,
  RankingEntry,
  Regression,
  Regressions,
  ScanDetail,
  ScanHistoryEntry,
  University,
  UniversityDetail,
} from "../lib/index.ts";
import {
  CATEGORIES,
  CATEGORY_NAMES,
  COMPOSITE_SCORES,
  RANKING_SORTS,
  type RankingSort,
  SCORES,
  type ScoreGroup,
  type ScoreName,
} from "../lib/scores/catalogue.ts";
import { recommend } from "../lib/scores/recommend.ts";
import { api } from "./api.ts";
import { histogram, lines, profile } from "./charts.ts";
import { fmt, h, link, table, uniLink } from "./dom.ts";

/** Each page reads its state from the URL's query and renders into `main`. */
export type Query = URLSearchParams;

/** The overall score and the composites: the lines of a university's history, the axes of a comparison. */
const HEADLINE = ["overall_score", ...COMPOSITE_SCORES.map((c) => c.name)] as const;
const label = (name: string) => SCORES.find((s) => s.name === name)?.label ?? name;
const categoryLabel = (c: string) =>
  `${c[0]?.toUpperCase()}${c.slice(1)} (${label(CATEGORIES[c as keyof typeof CATEGORIES])})`;

/** A form whose fields write the page's state into the URL (so every view has a deep link). */
function stateForm(page: string, q: Query, fields: HTMLElement[], legend: string): HTMLElement {
  const form = h(
    "form",
    { class: "controls", "aria-label": legend },
    ...fields,
    h("button", { type: "submit" }, "Show"),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const next = new URLSearchParams();
    for (const [k, v] of new FormData(form as HTMLFormElement)) if (String(v) !== "") next.set(k, String(v));
    for (const keep of ["ids"]) if (q.get(keep) && !next.has(keep)) next.set(keep, q.get(keep) ?? "");
    location.hash = `#/${page}${next.toString() ? `?${next}` : ""}`;
  });
  return form;
}

const field = (labelText: string, control: HTMLElement) =>
  h("label", { class: "field" }, h("span", {}, labelText), control);
const select = (name: string, value: string, options: [string, string][]) =>
  h("select", { name }, ...options.map(([v, t]) => h("option", { value: v, selected: v === value }, t)));
const input = (name: string, value: string, attrs: Record<string, string> = {}) =>
  h("input", { name, value, ...attrs });

function pager(page: string, q: Query, meta: PageMeta): HTMLElement {
  const pages = Math.max(1, Math.ceil(meta.total / meta.limit));
  const to = (p: number) => {
    const next = new URLSearchParams(q);
    next.set("page", String(p));
    return `#/${page}?${next}`;
  };
  return h(
    "nav",
    { class: "pager", "aria-label": "Pages" },
    meta.page > 1
      ? link(to(meta.page - 1), "← Previous")
      : h("span", { "aria-hidden": "true" }, "← Previous"),
    h("span", {}, `Page ${meta.page} of ${pages} · ${meta.total.toLocaleString("en")} in all`),
    meta.page < pages ? link(to(meta.page + 1), "Next →") : h("span", { "aria-hidden": "true" }, "Next →"),
  );
}

const scoreOptions = (): [string, string][] => CATEGORY_NAMES.map((c) => [CATEGORIES[c], categoryLabel(c)]);

export async function overview(q: Query): Promise<HTMLElement[]> {
  const score = q.get("score") ?? "overall_score";
  const [all, dist, top, drops] = await Promise.all([
    api<University[], PageMeta>("/universities", { limit: 1 }),
    api<DistributionBin[], DistributionMeta>("/distribution", { score, bins: 20 }),
    api<RankingEntry[], PageMeta>("/rankings", { limit: 10 }),
    api<Regression[], Regressions["meta"]>("/regressions", { limit: 5 }),
  ]);
  const stat = (t: string, v: string) => h("div", { class: "stat" }, h("dt", {}, t), h("dd", {}, v));
  return [
    h("h1", {}, "Overview"),
    h(
      "dl",
      { class: "stats" },
      stat("Universities", all.meta.total.toLocaleString("en")),
      stat("With a completed scan", dist.meta.measured.toLocaleString("en")),
      stat(`Mean ${label(score).toLowerCase()}`, fmt(dist.meta.mean)),
      stat(`Median ${label(score).toLowerCase()}`, fmt(dist.meta.median)),
    ),
    h(
      "section",
      { "aria-labelledby": "dist-h" },
      h("h2", { id: "dist-h" }, "Distribution"),
      stateForm("", q, [field("Score", select("score", score, scoreOptions()))], "Distribution score"),
      histogram(`Universities by ${label(score).toLowerCase()} (latest completed scan, 20 bins)`, dist.data),
    ),
    h(
      "div",
      { class: "two" },
      h(
        "section",
        {},
        h("h2", {}, "Top universities"),
        table(
          "Top 10 by overall score",
          ["#", "University", "Country", "Overall"],
          top.data.map((r) => [r.rank, uniLink(r), r.country, fmt(r.overall_score)]),
          [0, 3],
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
              ["University", "Now", "Drop"],
              drops.data.map((r) => [uniLink(r.university), fmt(r.current.score), `−${fmt(r.drop)}`]),
              [1, 2],
            ),
        link("#/regressions", "All regressions →"),
      ),
    ),
  ];
}

const SORTS = Object.keys(RANKING_SORTS) as RankingSort[];
const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export async function rankings(q: Query): Promise<HTMLElement[]> {
  const page = Number(q.get("page") ?? 1);
  const limit = Number(q.get("limit") ?? 50);
  const search = q.get("search") ?? "";
  const sort = q.get("sort") ?? "overall";
  const country = q.get("country") ?? "";
  const min = q.get("min_score") ?? "";
  const max = q.get("max_score") ?? "";
  const filters: Record<string, string | number> = { page, limit, sort };
  if (country) filters.country = country;
  if (min) filters.min_score = min;
  if (max) filters.max_score = max;
  const [{ data, meta }, found] = await Promise.all([
    api<RankingEntry[], PageMeta>("/rankings", filters),
    search ? api<University[], PageMeta>("/universities", { search, limit: 20 }) : null,
  ]);
  const matches = found
    ? [
        table(
          `${found.meta.total} universit${found.meta.total === 1 ? "y matches" : "ies match"} “${search}”`,
          ["University", "Domain", "Country"],
          found.data.map((u) => [uniLink(u), u.domain, u.country]),
        ),
      ]
    : [];
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
            SORTS.map((s) => [s, capitalised(s)]),
          ),
        ),
        field("Country (2 letters)", input("country", country, { maxlength: "2", autocomplete: "off" })),
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
    ),
    ...matches,
    table(
      `Universities by ${sort} score${country ? ` in ${country.toUpperCase()}` : ""}, page ${meta.page} (${meta.total} ranked)`,
      ["#", "University", "Country", "Overall", "Webometrics", "Technical", "Research", "Presence"],
      data.map((r) => [
        r.rank,
        uniLink(r),
        r.country,
        fmt(r.overall_score),
        fmt(r.webometrics_score),
        fmt(r.technical_score),
        fmt(r.research_score),
        fmt(r.presence_score),
      ]),
      [0, 3, 4, 5, 6, 7],
    ),
    pager("rankings", q, meta),
  ];
}

const GROUPS: [ScoreGroup, string][] = [
  ["overall", "Overall"],
  ["composite", "Composites"],
  ["webometrics", "Webometrics"],
  ["research", "Research"],
  ["presence", "Presence"],
  ["technical", "Technical"],
];

export async function university(id: number): Promise<HTMLElement[]> {
  const [detail, history] = await Promise.all([
    api<UniversityDetail>(`/universities/${id}`),
    api<ScanHistoryEntry[], PageMeta>(`/universities/${id}/history`, { limit: 500 }),
  ]);
  const u = detail.data;
  const scan = u.latest_scan ? (await api<ScanDetail>(`/scans/${u.latest_scan.id}`)).data : null;
  const out: HTMLElement[] = [
    h("h1", {}, u.name),
    h(
      "p",
      { class: "lede" },
      `${u.domain} · ${u.country} · ${u.scan_count} completed scan${u.scan_count === 1 ? "" : "s"}`,
      u.latest_scan ? ` · latest ${u.latest_scan.completed_at.slice(0, 10)}` : "",
      " · ",
      link(`#/compare?ids=${u.id}`, "Compare with…"),
    ),
  ];
  if (history.data.length > 0) {
    const xs = history.data.map((e) => Date.parse(e.completed_at) / 1000);
    out.push(
      h(
        "section",
        {},
        h("h2", {}, "History"),
        lines(
          `Overall and composite scores over ${history.data.length} completed scans`,
          xs,
          HEADLINE.map((name) => ({
            label: label(name),
            values: history.data.map((e) => e[name] ?? null),
          })),
        ),
      ),
    );
  }
  if (scan?.scores) {
    const scores = scan.scores;
    out.push(h("h2", {}, "Scores of the latest scan"));
    const grid = h("div", { class: "groups" });
    for (const [group, title] of GROUPS) {
      const defs = SCORES.filter((s) => s.group === group);
      grid.append(
        h(
          "section",
          { class: "group" },
          h("h3", {}, title),
          h(
            "ul",
            { class: "scores" },
            ...defs.map((d) => {
              const v = scores[d.name as ScoreName];
              return h(
                "li",
                {},
                h("span", { class: "score-label" }, d.label, h("small", {}, d.measures)),
                h("meter", {
                  min: 0,
                  max: 100,
                  low: 50,
                  high: 70,
                  optimum: 100,
                  value: v ?? 0,
                  "aria-label": `${d.label}: ${fmt(v)}`,
                }),
                h("span", { class: "num" }, fmt(v)),
              );
            }),
          ),
        ),
      );
    }
    out.push(grid);
    const recs = recommend(scores as never);
    out.push(
      h("h2", {}, "Recommendations"),
      recs.length === 0
        ? h("p", {}, "No sub-score is measured yet.")
        : h(
            "ol",
            { class: "recs" },
            ...recs.map((r) => h("li", { class: r.priority }, h("strong", {}, `${r.priority}: `), r.message)),
          ),
    );
    if (scan.evidence !== undefined && scan.evidence !== null) {
      out.push(
        h("h2", {}, "Evidence"),
        h("pre", { class: "evidence", tabindex: "0" }, JSON.stringify(scan.evidence, null, 2)),
      );
    }
  } else {
    out.push(h("p", {}, "This university has no completed scan yet."));
  }
  return out;
}

export async function compare(q: Query): Promise<HTMLElement[]> {
  const ids = [
    ...new Set(
      (q.get("ids") ?? "")
        .split(",")
        .map(Number)
        .filter((n) => Number.isInteger(n) && n > 0),
    ),
  ].slice(0, 10);
  const search = q.get("search") ?? "";
  const form = stateForm(
    "compare",
    new URLSearchParams(),
    [
      field(
        "University ids, comma-separated (2 to 10)",
        input("ids", ids.join(","), { inputmode: "numeric" }),
      ),
      field("Find a university", input("search", search, { type: "search" })),
    ],
    "Universities to compare",
  );
  const out: HTMLElement[] = [h("h1", {}, "Compare"), form];
  if (search) {
    const found = await api<University[]>("/universities", { search, limit: 10 });
    out.push(
      table(
        `Universities matching “${search}”`,
        ["University", "Country", ""],
        found.data.map((u) => [
          uniLink(u),
          u.country,
          ids.includes(u.id) || ids.length >= 10
            ? ""
            : link(`#/compare?ids=${[...ids, u.id].join(",")}`, "Add"),
        ]),
      ),
    );
  }
  if (ids.length < 2) {
    out.push(
      h(
        "p",
        {},
        "Choose two to ten universities: search above, or open a university and follow “Compare with…”.",
      ),
    );
    return out;
  }
  const details = await Promise.all(ids.map((id) => api<UniversityDetail>(`/universities/${id}`)));
  const scans = await Promise.all(
    details.map((d) =>
      d.data.latest_scan ? api<ScanDetail>(`/scans/${d.data.latest_scan.id}`).then((s) => s.data) : null,
    ),
  );
  const series = details.map((d, i) => ({
    label: d.data.name,
    values: HEADLINE.map((n) => scans[i]?.scores?.[n] ?? null),
  }));
  out.push(
    profile(`Overall and composite scores of ${ids.length} universities`, HEADLINE.map(label), series),
    table(
      "Every score side by side",
      ["Score", ...details.map((d) => d.data.name)],
      SCORES.map((s) => [s.label, ...scans.map((sc) => fmt(sc?.scores?.[s.name as ScoreName]))]),
      details.map((_, i) => i + 1),
    ),
    h("p", {}, ...details.flatMap((d, i) => [i > 0 ? " · " : "", uniLink(d.data)])),
  );
  return out;
}

export async function leaderboards(q: Query): Promise<HTMLElement[]> {
  const category = CATEGORY_NAMES.includes(q.get("category") as never)
    ? (q.get("category") as string)
    : "overall";
  const limit = Number(q.get("limit") ?? 25);
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
          c,
        ),
      ),
    ),
    table(
      `Top ${limit}: ${categoryLabel(category)}`,
      ["#", "University", "Country", "Score", "Scanned"],
      data.map((r) => [r.rank, uniLink(r.university), r.university.country, fmt(r.score), r.scan_date]),
      [0, 3],
    ),
  ];
}

export async function regressionsPage(q: Query): Promise<HTMLElement[]> {
  const days = q.get("days") ?? "30";
  const minDrop = q.get("min_drop") ?? "5";
  const category = q.get("category") ?? "overall";
  const { data, meta } = await api<Regression[], Regressions["meta"]>("/regressions", {
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
      `${meta.total} drop${meta.total === 1 ? "" : "s"} of at least ${minDrop} points in ${days} days (${category})`,
      ["University", "Country", "Before", "Now", "Drop", "Scanned"],
      data.map((r) => [
        uniLink(r.university),
        r.university.country,
        fmt(r.previous.score),
        fmt(r.current.score),
        `−${fmt(r.drop)}`,
        r.current.completed_at.slice(0, 10),
      ]),
      [2, 3, 4],
    ),
  ];
}
