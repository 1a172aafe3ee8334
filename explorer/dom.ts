/** A tiny element builder: text always goes in as text, never as HTML; no inline styles (the CSP refuses them). */

export type Child = Node | string | number | null | undefined | false;
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

/**
 * A column of a table. `name` is the column that names the row (it wraps, so a long name never widens the page);
 * `main` marks the row's main value: tables put both first, so on a phone they show without scrolling sideways.
 */
export interface Column {
  label: string;
  numeric?: boolean;
  name?: boolean;
  main?: boolean;
  /** Prose that wraps within a readable width (what was observed, what to do). */
  wrap?: boolean;
  /** A header that wraps like a name (a university's name heading its column). */
  wrapHead?: boolean;
  /** `aria-sort` of the column the rows are ordered by. */
  sort?: "ascending" | "descending";
}

const cellClass = (c: Column) =>
  [c.numeric ? "num" : "", c.name ? "name" : "", c.main ? "main" : "", c.wrap ? "wrap" : ""]
    .filter(Boolean)
    .join(" ") || undefined;

/** A name's cell content: wraps, and stops after a few lines in a table (the whole name as its tooltip). */
function named(content: Child | Child[]): HTMLElement {
  const span = h("span", { class: "nm" }, content);
  const text = span.textContent ?? "";
  if (text.length > 120) span.title = text;
  return span;
}

let tables = 0;

/** A table with a caption, header cells with scope, numeric columns aligned, the name column wrapping. */
export function table(
  caption: Child | Child[],
  columns: Column[],
  rows: (Child | Child[])[][],
  attrs: { rowAttrs?: (i: number) => Record<string, string>; id?: string } = {},
): HTMLElement {
  const captionId = `caption-${++tables}`;
  // The box scrolls sideways when the table is wider: a keyboard can reach it, and it is named by its caption.
  return h(
    "div",
    { class: "table-wrap", id: attrs.id, role: "region", tabindex: "0", "aria-labelledby": captionId },
    h(
      "table",
      {},
      h("caption", { id: captionId }, caption),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ...columns.map((c) =>
            h(
              "th",
              { scope: "col", class: cellClass(c), "aria-sort": c.sort },
              c.name || c.wrapHead ? named(c.label) : c.label,
            ),
          ),
        ),
      ),
      h(
        "tbody",
        {},
        ...rows.map((r, i) =>
          h(
            "tr",
            attrs.rowAttrs?.(i) ?? {},
            ...r.map((content, j) => {
              const c = columns[j] ?? { label: "" };
              // The naming cell is a row header: screen readers announce it with each value.
              return h(
                c.name ? "th" : "td",
                { class: cellClass(c), scope: c.name ? "row" : undefined },
                c.name ? named(content) : content,
              );
            }),
          ),
        ),
      ),
    ),
  );
}

export const link = (href: string, text: Child, attrs: Attrs = {}) => h("a", { href, ...attrs }, text);
export const uniLink = (u: { id: number; name: string }) => link(`#/university/${u.id}`, u.name);
