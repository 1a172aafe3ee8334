import { SCORES } from "../../lib/scores/catalogue.ts";
import { h, table } from "../dom.ts";
import { type CheckResult, checkResult, fmt, pointsText } from "../format.ts";
import type { Grade } from "../grade.ts";
import { scoreLabel } from "../labels.ts";
import type { CheckPoints } from "../types.ts";

const ORDER: Record<CheckResult, number> = { fail: 0, partial: 1, pass: 2 };
const MARK: Record<CheckResult, string> = { fail: "✗ Fail", partial: "◐ Partial", pass: "✓ Pass" };
const CATALOGUE = new Map(SCORES.map((s, i) => [s.name, i]));

/** The checks of one scan by sub-score (catalogue order), failing ones first within each, then most points lost. */
export function groupChecks(checks: CheckPoints[]): [string, CheckPoints[]][] {
  const groups = new Map<string, CheckPoints[]>();
  for (const c of checks) groups.set(c.score, [...(groups.get(c.score) ?? []), c]);
  const rank = (score: string) => CATALOGUE.get(score) ?? SCORES.length;
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([score, list]) => [
      score,
      list
        .map((c, i) => ({ c, i }))
        .sort(
          (x, y) =>
            ORDER[checkResult(x.c)] - ORDER[checkResult(y.c)] ||
            y.c.max - y.c.points - (x.c.max - x.c.points) ||
            x.i - y.i,
        )
        .map((x) => x.c),
    ]);
}

/** ✗ Fail, ◐ Partial, ✓ Pass: a sign and a word (on a phone the word is for screen readers only). */
export const resultMark = (c: { points: number; max: number }) => {
  const r = checkResult(c);
  const [sign, word] = MARK[r].split(" ");
  return h(
    "span",
    { class: `mark ${r}` },
    h("span", { "aria-hidden": "true" }, sign),
    h("span", { class: "word" }, ` ${word}`),
  );
};

/**
 * The scanner's evidence as a table: a row group per sub-score (its label, value and any grade), a row per check
 * with its result, points of maximum, what was observed and what to do; then the sub-scores left unmeasured.
 */
export function evidenceSection(
  checks: CheckPoints[],
  scores: Record<string, number | null>,
  unmeasured: Record<string, string>,
  grade: Grade | null,
): HTMLElement {
  const groups = groupChecks(checks);
  const count = (r: CheckResult) => checks.filter((c) => checkResult(c) === r).length;
  const columns = [
    { label: "Check", name: true },
    { label: "Points", main: true },
    { label: "What was observed", wrap: true },
    { label: "What to do", wrap: true },
  ];
  const built = table(
    `${checks.length} checks: ${count("fail")} fail, ${count("partial")} partly pass, ${count("pass")} pass. Failing checks first in each sub-score.`,
    columns,
    [],
    { id: "evidence" },
  );
  const tableEl = built.querySelector("table") as HTMLTableElement;
  tableEl.querySelector("tbody")?.remove();
  for (const [score, list] of groups) {
    const graded =
      grade && (grade.score === score || (grade.score === null && score === "tech_security_headers_score"));
    const head = h(
      "tr",
      { class: "group-row" },
      h(
        "th",
        { scope: "rowgroup", colspan: String(columns.length) },
        h("span", { class: "nm" }, scoreLabel(score)),
        score in scores ? h("span", { class: "group-score" }, ` ${fmt(scores[score])} / 100`) : "",
        graded ? h("span", { class: "grade" }, ` · grade ${grade.grade}`) : "",
      ),
    );
    const rows = list.map((c) =>
      h(
        "tr",
        {
          "data-check": c.id,
          "data-points": String(c.points),
          "data-max": String(c.max),
          class: checkResult(c),
        },
        h("th", { scope: "row", class: "name" }, h("span", { class: "nm" }, c.label)),
        h("td", { class: "main" }, resultMark(c), " ", h("span", { class: "points" }, pointsText(c))),
        h("td", { class: "wrap" }, c.detail),
        h("td", { class: "wrap" }, c.remediation ?? ""),
      ),
    );
    tableEl.append(h("tbody", { "data-score": score }, head, ...rows));
  }
  const missing = Object.entries(unmeasured);
  return h(
    "section",
    { "aria-labelledby": "evidence-h" },
    h("h2", { id: "evidence-h" }, "Evidence"),
    h(
      "p",
      {},
      "What the scanner checked on the latest scan, check by check, as the rubrics in the documentation score it.",
    ),
    built,
    missing.length === 0
      ? ""
      : table(
          "Sub-scores not measured, and why",
          [
            { label: "Sub-score", name: true },
            { label: "Why", wrap: true },
          ],
          missing.map(([score, why]) => [scoreLabel(score), why]),
          { id: "unmeasured" },
        ),
  );
}
