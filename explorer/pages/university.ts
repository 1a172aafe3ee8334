import { evidenceChecks } from "../../lib/queries/evidence-checks.ts";
import { SCORES, type ScoreGroup } from "../../lib/scores/catalogue.ts";
import { recommend } from "../../lib/scores/recommend.ts";
import { api } from "../api.ts";
import { timeline } from "../charts.ts";
import { h, link, table } from "../dom.ts";
import { countryName, fmt, ordinal } from "../format.ts";
import { findGrade } from "../grade.ts";
import { HEADLINE_SCORES, scoreLabel } from "../labels.ts";
import { profileText } from "../profiles.ts";
import type { PageMeta, ScanDetail, ScanHistoryEntry, UniversityRanking, UniversityV2 } from "../types.ts";
import { evidenceSection } from "./evidence.ts";

const GROUPS: [ScoreGroup, string][] = [
  ["overall", "Overall"],
  ["composite", "Composites"],
  ["webometrics", "Webometrics"],
  ["research", "Research"],
  ["presence", "Presence"],
  ["technical", "Technical"],
];

const diffLink = (a: number, b: number, text: string) => link(`#/diff?a=${a}&b=${b}`, text);
const day = (iso: string) => iso.slice(0, 10);

/** "Ranked 12th of 466 overall and 3rd of 30 in NL", each part a link to that ranking. */
export function rankLine(r: UniversityRanking): HTMLElement {
  const page = (rank: number) => Math.ceil(rank / 50);
  const profile = `&profile=${encodeURIComponent(r.profile)}`;
  return h(
    "p",
    { class: "rank", id: "rank" },
    "Ranked ",
    link(
      `#/rankings?page=${page(r.rank)}${profile}`,
      `${ordinal(r.rank)} of ${r.total.toLocaleString("en")} overall`,
    ),
    " and ",
    link(
      `#/rankings?country=${r.country}&page=${page(r.country_rank)}${profile}`,
      `${ordinal(r.country_rank)} of ${r.country_total.toLocaleString("en")} in ${r.country}`,
    ),
    h("span", { class: "visually-hidden" }, ` (${countryName(r.country)})`),
    ", by overall score, among universities measured the same way: ",
    link("#/methodology", profileText(r.profile)),
    ".",
  );
}

function scoreGroups(scores: Record<string, number | null>): HTMLElement {
  const grid = h("div", { class: "groups" });
  for (const [group, title] of GROUPS) {
    grid.append(
      h(
        "section",
        { class: "group" },
        h("h3", {}, title),
        h(
          "ul",
          { class: "scores" },
          ...SCORES.filter((s) => s.group === group).map((d) => {
            const v = scores[d.name] ?? null;
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
  return grid;
}

function history(entries: ScanHistoryEntry[], total: number): HTMLElement {
  const xs = entries.map((e) => Date.parse(e.completed_at) / 1000);
  const n = entries.length;
  const last = entries[n - 1];
  const previous = entries[n - 2];
  const scansText = `${n} completed scan${n === 1 ? "" : "s"}${total > n ? ` (the first ${n} of ${total})` : ""}`;
  return h(
    "section",
    { "aria-labelledby": "history-h" },
    h("h2", { id: "history-h" }, "History"),
    timeline(
      `Overall and composite scores over ${scansText}`,
      xs,
      HEADLINE_SCORES.map((name) => ({
        label: scoreLabel(name),
        values: entries.map((e) => (e as unknown as Record<string, number | null>)[name] ?? null),
      })),
      (i) => day(entries[i]?.completed_at ?? ""),
    ),
    last && previous
      ? h(
          "p",
          {},
          diffLink(
            previous.id,
            last.id,
            `What changed since the previous scan (${day(previous.completed_at)} → ${day(last.completed_at)})`,
          ),
        )
      : h("p", {}, "One completed scan so far: nothing to compare it with yet."),
    h(
      "details",
      {},
      h("summary", {}, `The ${scansText} as a table`),
      table(
        "Completed scans, oldest first",
        [
          { label: "Scan", name: true },
          { label: scoreLabel("overall_score"), numeric: true, main: true },
          ...HEADLINE_SCORES.slice(1).map((s) => ({ label: scoreLabel(s), numeric: true })),
          { label: "Changes" },
        ],
        entries.map((e, i) => {
          const row = e as unknown as Record<string, number | null>;
          const before = entries[i - 1];
          return [
            day(e.completed_at),
            ...HEADLINE_SCORES.map((s) => fmt(row[s])),
            before ? diffLink(before.id, e.id, "since the previous scan") : "",
          ];
        }),
      ),
    ),
  );
}

export async function university(id: number): Promise<HTMLElement[]> {
  const [detail, hist] = await Promise.all([
    api<UniversityV2>(`/universities/${id}`),
    api<ScanHistoryEntry[], PageMeta>(`/universities/${id}/history`, { limit: 500 }),
  ]);
  const u = detail.data;
  const scan = u.latest_scan ? (await api<ScanDetail>(`/scans/${u.latest_scan.id}`)).data : null;
  const entries = hist.data;
  const previous = entries.length >= 2 ? entries[entries.length - 2] : undefined;
  const evidence = scan?.evidence ?? null;
  const checks = evidenceChecks(evidence);
  const grade = findGrade(evidence);
  const out: HTMLElement[] = [
    h("h1", {}, u.name),
    h(
      "p",
      { class: "lede" },
      `${u.domain} · ${countryName(u.country)} (${u.country}) · ${u.scan_count} completed scan${u.scan_count === 1 ? "" : "s"}`,
      u.latest_scan ? ` · latest ${day(u.latest_scan.completed_at)}` : "",
    ),
    u.ranking
      ? rankLine(u.ranking)
      : h("p", { class: "rank", id: "rank" }, "Not ranked: no overall score yet."),
    h(
      "p",
      { class: "actions" },
      link(`#/compare?ids=${u.id}`, "Compare with…"),
      previous && u.latest_scan
        ? [
            h("span", { "aria-hidden": "true" }, " · "),
            diffLink(previous.id, u.latest_scan.id, "What changed since the previous scan"),
          ]
        : "",
    ),
  ];
  if (grade) {
    out.push(
      h(
        "p",
        { class: "grade-line", id: "grade" },
        `${grade.score ? scoreLabel(grade.score) : "Security headers"} grade (HTTP Observatory scale): `,
        h("strong", { class: "grade-badge" }, grade.grade),
      ),
    );
  }
  if (entries.length > 0) out.push(history(entries, hist.meta.total));
  if (!scan?.scores) {
    out.push(h("p", {}, "This university has no completed scan yet."));
    return out;
  }
  const scores = scan.scores as unknown as Record<string, number | null>;
  out.push(h("h2", {}, "Scores of the latest scan"), scoreGroups(scores));
  if (checks) {
    const unmeasured = (evidence?.unmeasured ?? {}) as Record<string, string>;
    out.push(evidenceSection(checks, scores, unmeasured, grade));
  } else {
    out.push(
      h("h2", {}, "Evidence"),
      h(
        "p",
        {},
        "This scan carries no per-check evidence (it was imported, not made by the unirank scanner).",
      ),
    );
  }
  const recs = recommend(scores, checks ?? []);
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
  return out;
}
