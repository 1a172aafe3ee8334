import { h } from "./dom.ts";
import { type Row, toCsv } from "./format.ts";

/**
 * "Download: CSV · JSON" for the rows a list view shows: made in the page from the data it already has (a Blob
 * behind a `download` link), so nothing is asked of the server again. The file is made when a button is used.
 */
export function downloads(basename: string, what: string, rows: () => readonly object[]): HTMLElement {
  const file = (format: "csv" | "json") =>
    h(
      "button",
      {
        type: "button",
        class: "link",
        "data-format": format,
        onclick: () => {
          const text = format === "csv" ? toCsv(rows() as Row[]) : `${JSON.stringify(rows(), null, 2)}\n`;
          const type = format === "csv" ? "text/csv;charset=utf-8" : "application/json";
          const a = h("a", {
            href: URL.createObjectURL(new Blob([text], { type })),
            download: `${basename}.${format}`,
          });
          document.body.append(a);
          (a as HTMLAnchorElement).click();
          a.remove();
          setTimeout(() => URL.revokeObjectURL((a as HTMLAnchorElement).href), 60_000);
        },
      },
      format.toUpperCase(),
    );
  return h(
    "p",
    { class: "downloads" },
    h("span", {}, `Download ${what}: `),
    file("csv"),
    h("span", { "aria-hidden": "true" }, " · "),
    file("json"),
  );
}
