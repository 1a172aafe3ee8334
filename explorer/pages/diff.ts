import { api } from "../api.ts";
import { h, link, table, uniLink } from "../dom.ts";
import { fmt, pointsText, signed } from "../format.ts";
import { scoreLabel } from "../labels.ts";
import type { CheckChange, ScanDiff } from "../types.ts";
import { resultMark } from "./evidence.ts";
import { type Query, whole } from "./forms.ts";

const day = (iso: string) => iso.slice(0, 10);
/** The two scans' times: their dates, with the time of day (UTC) when both fall on one day. */
const when = (a: string, b: string) =>
  day(a) === day(b) ? [`${day(a)} ${a.slice(11, 16)}`, `${day(b)} ${b.slice(11, 16)} UTC`] : [day(a), day(b)];

const side = (s: CheckChange["a"]) =>
  s
    ? [
        h("span", { class: "side" }, resultMark(s), " ", pointsText(s)),
        h("small", { class: "detail" }, s.detail),
      ]
    : h("span", { class: "side" }, "not checked");

function checksTable(checks: CheckChange[]): HTMLElement {
  return table(
    `${checks.length} check${checks.length === 1 ? "" : "s"} changed points, largest change first`,
    [
      { label: "Check", name: true },
      { label: "Change", numeric: true, main: true, sort: "descending" },
      { label: "Before", wrap: true },
      { label: "After", wrap: true },
      { label: "Sub-score" },
      { label: "What to do", wrap: true },
    ],
    checks.map((c) => [
      c.label,
      signed(c.delta),
      side(c.a),
      side(c.b),
      scoreLabel(c.score),
      c.b?.remediation ?? "",
    ]),
    { id: "check-changes", rowAttrs: (i) => ({ "data-check": checks[i]?.id ?? "" }) },
  );
}

const scoreColumns = [
  { label: "Score", name: true },
  { label: "Change", numeric: true, main: true, sort: "descending" as const },
  { label: "Before", numeric: true },
  { label: "After", numeric: true },
];
const scoreRows = (changes: ScanDiff["changes"]) =>
  changes.map((c) => [scoreLabel(c.score), signed(c.delta), fmt(c.a), fmt(c.b)]);

/** Two scans side by side: every score that either measured, then the rubric checks whose points changed. */
export async function diff(q: Query): Promise<HTMLElement[]> {
  const a = whole(q, "a", 0, 2 ** 31 - 1);
  const b = whole(q, "b", 0, 2 ** 31 - 1);
  if (!a || !b) {
    return [
      h("h1", {}, "What changed"),
      h(
        "p",
        {},
        "Name two scans: #/diff?a=<earlier scan id>&b=<later scan id>. A university's history links them.",
      ),
    ];
  }
  const { data: d } = await api<ScanDiff>("/scan-diff", { a, b });
  const { improved, declined, unchanged, not_comparable } = d.summary;
  const [from, to] = when(d.a.completed_at, d.b.completed_at);
  const changed = d.changes.filter((c) => c.delta !== 0);
  const same = d.changes.filter((c) => c.delta === 0);
  const oneUniversity = d.a.university.id === d.b.university.id;
  return [
    h(
      "h1",
      {},
      oneUniversity ? `What changed: ${d.b.university.name}` : "What changed between two universities",
    ),
    h(
      "p",
      { class: "lede" },
      oneUniversity
        ? [uniLink(d.b.university), ": "]
        : [uniLink(d.a.university), " → ", uniLink(d.b.university), ": "],
      `scan of ${from} → scan of ${to}`,
    ),
    h(
      "p",
      { class: "summary", id: "diff-summary" },
      `${improved} score${improved === 1 ? "" : "s"} improved, ${declined} declined, ${unchanged} unchanged`,
      not_comparable ? `, ${not_comparable} measured on one side only` : "",
      d.checks ? `; ${d.checks.length} check${d.checks.length === 1 ? "" : "s"} changed points.` : ".",
    ),
    h("h2", {}, "Checks"),
    d.checks === null
      ? h(
          "p",
          { id: "check-changes" },
          "Per-check evidence is not available for both scans (one was imported, not made by the unirank scanner).",
        )
      : d.checks.length === 0
        ? h("p", { id: "check-changes" }, "No check changed its points.")
        : checksTable(d.checks),
    h("h2", {}, "Scores"),
    changed.length === 0
      ? h("p", {}, "No score changed.")
      : table("Scores that changed, largest change first", scoreColumns, scoreRows(changed), {
          id: "score-changes",
        }),
    same.length === 0
      ? h("p", { hidden: true })
      : h(
          "details",
          {},
          h("summary", {}, `${same.length} unchanged score${same.length === 1 ? "" : "s"}`),
          table("Scores that did not change", scoreColumns, scoreRows(same), { id: "score-same" }),
        ),
    h("p", {}, link(`#/diff?a=${b}&b=${a}`, "Swap the two scans")),
  ];
}
