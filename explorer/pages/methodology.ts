import { api } from "../api.ts";
import { h, link, table } from "../dom.ts";
import { scoreLabel } from "../labels.ts";
import type { Methodology } from "../types.ts";

type Check = Methodology["checks"][number];

/** What earns a check's points, as the docs write it: `code` as code, a score's key as its label. */
function prose(text: string): (HTMLElement | string)[] {
  return text.split("`").map((part, i) => {
    const named = part.replace(/\b[a-z0-9]+(?:_[a-z0-9]+)*_score\b/g, (name) => scoreLabel(name));
    return i % 2 === 1 && named === part ? h("code", {}, part) : named;
  });
}

/** A reference's title, a link when it is on the web (the page itself asks nothing of another host). */
function reference(m: Methodology, key: string): HTMLElement | string {
  const r = m.references[key];
  if (!r) return key;
  return /^https:\/\//.test(r.url) ? link(r.url, r.title, { rel: "noreferrer" }) : r.title;
}

/** Every check as one table, a row group per sub-score in the catalogue's order. */
function checksTable(m: Methodology): HTMLElement {
  const columns = [
    { label: "Check", name: true },
    { label: "Points", main: true },
    { label: "What earns them", wrap: true },
    { label: "Reference", wrap: true },
  ];
  const built = table(
    `${m.checks.length} checks of rubric version ${m.rubric_version}, by sub-score. A sub-score is the points earned over the points possible, as 0–100 (the security headers add and subtract the HTTP Observatory's modifiers).`,
    columns,
    [],
    { id: "checks" },
  );
  const tableEl = built.querySelector("table") as HTMLTableElement;
  tableEl.querySelector("tbody")?.remove();
  const bySub = new Map<string, Check[]>();
  for (const c of m.checks) bySub.set(c.score, [...(bySub.get(c.score) ?? []), c]);
  for (const s of m.sub_scores) {
    const list = bySub.get(s.name);
    if (!list) continue;
    const head = h(
      "tr",
      { class: "group-row" },
      h("th", { scope: "rowgroup", colspan: String(columns.length) }, h("span", { class: "nm" }, s.label)),
    );
    const rows = list.map((c) =>
      h(
        "tr",
        { "data-check": c.id },
        h("th", { scope: "row", class: "name" }, h("span", { class: "nm" }, c.label)),
        h("td", { class: "main" }, c.max === null ? "varies" : String(c.max)),
        h("td", { class: "wrap" }, ...prose(c.earns)),
        h("td", { class: "wrap" }, reference(m, c.reference)),
      ),
    );
    tableEl.append(h("tbody", { "data-score": s.name }, head, ...rows));
  }
  return built;
}

/** `#/methodology`: how unirank scores, read from `/methodology`: composites and weights, profiles, every check. */
export async function methodologyPage(): Promise<HTMLElement[]> {
  const { data: m } = await api<Methodology>("/methodology");
  const latest = m.rubric_versions.at(-1);
  const notMeasured = m.sub_scores.filter((s) => s.part === null).map((s) => s.label);
  return [
    h("h1", {}, "Methodology"),
    h(
      "p",
      { class: "lede" },
      `Every score is 0–100. Scans are scored by rubric version ${m.rubric_version}`,
      latest ? `: ${latest.summary}` : ".",
    ),
    h("h2", {}, "Overall and the composites"),
    table(
      "Overall is the weighted mean of the four composites; a composite is the mean of its measured sub-scores",
      [
        { label: "Composite", name: true },
        { label: "Weight in overall", numeric: true, main: true },
        { label: "Mean of", wrap: true },
      ],
      m.composites.map((c) => [
        c.label,
        `${Math.round(c.weight * 100)} %`,
        c.from.map((s) => scoreLabel(s)).join(", "),
      ]),
      { id: "composites" },
    ),
    h("h2", {}, "Like with like: profiles"),
    h("p", { id: "profile-rule" }, m.profiles.rule),
    table(
      "The measurement parts a scan's profile names",
      [
        { label: "Part", name: true },
        { label: "Counts when", wrap: true },
        { label: "Measures", wrap: true },
      ],
      m.profiles.parts.map((p) => [p.label, p.ran, p.measures.map((s) => scoreLabel(s)).join(", ")]),
      { id: "parts" },
    ),
    h(
      "p",
      {},
      `${notMeasured.join(" and ")} belong to no part: only an import supplies them. Profile ${m.profiles.unknown}.`,
    ),
    h("h2", {}, "Every check"),
    checksTable(m),
  ];
}
