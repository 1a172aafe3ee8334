/** A tiny element builder: text always goes in as text, never as HTML. */

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | undefined | ((e: Event) => void)>;

export function h(tag: string, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

export const fmt = (v: number | null | undefined): string => (v == null ? "—" : v.toFixed(1));

/** A table with a caption, header cells with scope, and numeric columns aligned. */
export function table(caption: string, head: string[], rows: Child[][], numeric: number[] = []): HTMLElement {
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      {},
      h("caption", {}, caption),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ...head.map((c, i) => h("th", { scope: "col", class: numeric.includes(i) ? "num" : undefined }, c)),
        ),
      ),
      h(
        "tbody",
        {},
        ...rows.map((r) =>
          h("tr", {}, ...r.map((c, i) => h("td", { class: numeric.includes(i) ? "num" : undefined }, c))),
        ),
      ),
    ),
  );
}

export const link = (href: string, text: string) => h("a", { href }, text);
export const uniLink = (u: { id: number; name: string }) => link(`#/university/${u.id}`, u.name);
