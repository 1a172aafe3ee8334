import { h, link } from "../dom.ts";
import type { PageMeta } from "../types.ts";

/** Each page reads its state from the URL's query and renders into `main`. */
export type Query = URLSearchParams;

/** A form whose fields write the page's state into the URL (so every view has a deep link). */
export function stateForm(
  page: string,
  q: Query,
  fields: HTMLElement[],
  legend: string,
  keep: string[] = [],
) {
  const form = h(
    "form",
    { class: "controls", "aria-label": legend },
    ...fields,
    h("button", { type: "submit" }, "Show"),
  ) as HTMLFormElement;
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const next = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (String(v) !== "") next.set(k, String(v));
    for (const k of keep) if (q.get(k) && !next.has(k)) next.set(k, q.get(k) ?? "");
    location.hash = `#/${page}${next.toString() ? `?${next}` : ""}`;
  });
  return form;
}

export const field = (labelText: string, control: HTMLElement) =>
  h("label", { class: "field" }, h("span", {}, labelText), control);

export const select = (name: string, value: string, options: [string, string][]) =>
  h(
    "select",
    { name },
    ...options.map(([v, t]) =>
      h("option", { value: v, selected: v.toLowerCase() === value.toLowerCase() }, t),
    ),
  );

export const input = (name: string, value: string, attrs: Record<string, string> = {}) =>
  h("input", { name, value, ...attrs });

/** A positive whole number from the query, else the fallback. */
export const whole = (q: Query, name: string, fallback: number, max = 1_000_000) => {
  const n = Number(q.get(name));
  return Number.isInteger(n) && n >= 1 && n <= max ? n : fallback;
};

export function pager(page: string, q: Query, meta: PageMeta): HTMLElement {
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
