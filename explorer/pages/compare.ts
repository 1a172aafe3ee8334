import { SCORES } from "../../lib/scores/catalogue.ts";
import { ApiError, api } from "../api.ts";
import { groupedBars } from "../charts.ts";
import { h, link, table, uniLink } from "../dom.ts";
import { downloads } from "../download.ts";
import { countryName, fmt } from "../format.ts";
import { HEADLINE_SCORES, scoreLabel } from "../labels.ts";
import type { ComparisonEntry, PageMeta, University, UniversityV2 } from "../types.ts";
import type { Query } from "./forms.ts";

const MAX = 10;
const hashOf = (ids: number[]) => `#/compare${ids.length ? `?ids=${ids.join(",")}` : ""}`;

/** Whether the next render of Compare puts the focus back into the search (after adding from it). */
let refocus = false;

/** Search as you type: matches of the name (or domain) appear under the field, each with an Add button. */
function picker(ids: number[], initial: string): HTMLElement {
  const results = h("ul", { class: "picks", id: "compare-results" });
  const status = h("p", { class: "pick-status", role: "status", id: "compare-status" });
  const field = h("input", {
    type: "search",
    id: "compare-search",
    name: "search",
    value: initial,
    autocomplete: "off",
    "aria-describedby": "compare-status",
    "aria-controls": "compare-results",
    "data-autofocus": ids.length < 2 || refocus ? "true" : undefined,
  }) as HTMLInputElement;
  refocus = false;
  let asked = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let first: University | undefined;
  const add = (u: University) => {
    refocus = true;
    location.hash = hashOf([...ids, u.id]);
  };
  const search = async () => {
    const text = field.value.trim();
    const mine = ++asked;
    if (text.length < 2) {
      results.replaceChildren();
      status.textContent = text ? "Type at least two letters." : "";
      first = undefined;
      return;
    }
    try {
      const found = await api<University[], PageMeta>("/universities", { search: text, limit: 8 });
      if (mine !== asked) return;
      const open = found.data.filter((u) => !ids.includes(u.id));
      first = open[0];
      status.textContent =
        found.meta.total === 0
          ? `No university matches “${text}”.`
          : `${found.meta.total.toLocaleString("en")} match${found.meta.total === 1 ? "es" : ""} “${text}”${found.meta.total > found.data.length ? `; the first ${found.data.length}:` : ":"}`;
      results.replaceChildren(
        ...found.data.map((u) =>
          h(
            "li",
            {},
            h(
              "span",
              { class: "pick-name" },
              u.name,
              h("small", {}, ` ${u.domain} · ${countryName(u.country)}`),
            ),
            ids.includes(u.id)
              ? h("span", { class: "pick-note" }, "chosen")
              : h(
                  "button",
                  {
                    type: "button",
                    disabled: ids.length >= MAX,
                    "aria-label": `Add ${u.name}`,
                    onclick: () => add(u),
                  },
                  "Add",
                ),
          ),
        ),
      );
    } catch (e) {
      if (mine === asked) status.textContent = e instanceof ApiError ? e.sentence : "The search failed.";
    }
  };
  field.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => void search(), 200);
  });
  const form = h(
    "form",
    {
      class: "controls picker",
      role: "search",
      "aria-label": "Add universities to compare",
      onsubmit: (e: Event) => {
        e.preventDefault();
        if (first && ids.length < MAX) add(first);
      },
    },
    h(
      "label",
      { class: "field wide" },
      h("span", {}, ids.length >= MAX ? `Ten universities chosen (the most)` : "Add a university by name"),
      field,
    ),
  );
  if (initial) void search();
  return h("div", {}, form, status, results);
}

function chosen(entries: { id: number; name: string }[], ids: number[]): HTMLElement {
  return h(
    "ul",
    { class: "chosen", "aria-label": "Chosen universities" },
    ...entries.map((u) =>
      h(
        "li",
        {},
        uniLink(u),
        " ",
        link(hashOf(ids.filter((x) => x !== u.id)), "Remove", { "aria-label": `Remove ${u.name}` }),
      ),
    ),
  );
}

export async function compare(q: Query): Promise<HTMLElement[]> {
  const ids = [
    ...new Set(
      (q.get("ids") ?? "")
        .split(",")
        .map(Number)
        .filter((n) => Number.isInteger(n) && n > 0 && n < 2 ** 31),
    ),
  ].slice(0, MAX);
  const out: HTMLElement[] = [h("h1", {}, "Compare")];
  if (ids.length < 2) {
    const one = ids[0] ? (await api<UniversityV2>(`/universities/${ids[0]}`)).data : null;
    out.push(
      one ? chosen([one], ids) : h("p", {}, "No university chosen yet."),
      picker(ids, q.get("search") ?? ""),
      h("p", {}, one ? "Add at least one more to compare." : "Choose two to ten universities by name."),
    );
    return out;
  }
  const { data } = await api<ComparisonEntry[]>("/compare", { ids: ids.join(",") });
  const unis = data.map((e) => e.university);
  const series = data.map((e) => ({
    label: e.university.name,
    values: HEADLINE_SCORES.map((n) => (e.scores as Record<string, number | null> | null)?.[n] ?? null),
  }));
  out.push(
    chosen(unis, ids),
    picker(ids, q.get("search") ?? ""),
    groupedBars(
      `Overall and composite scores of ${ids.length} universities`,
      HEADLINE_SCORES.map(scoreLabel),
      series,
    ),
    table(
      "Every score of their latest completed scans, side by side",
      [
        { label: "Score", name: true },
        ...unis.map((u, i) => ({ label: u.name, numeric: true, main: i === 0, wrapHead: true })),
      ],
      SCORES.map((s) => [
        s.label,
        ...data.map((e) => fmt((e.scores as Record<string, number | null> | null)?.[s.name])),
      ]),
      { id: "comparison" },
    ),
    downloads(`unirank-compare-${ids.join("-")}`, "this comparison", () => data),
  );
  return out;
}
