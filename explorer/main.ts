import { ApiError, beginView } from "./api.ts";
import { h } from "./dom.ts";
import { compare } from "./pages/compare.ts";
import { diff } from "./pages/diff.ts";
import type { Query } from "./pages/forms.ts";
import { leaderboards } from "./pages/leaderboards.ts";
import { methodologyPage } from "./pages/methodology.ts";
import { overview } from "./pages/overview.ts";
import { rankings } from "./pages/rankings.ts";
import { regressionsPage } from "./pages/regressions.ts";
import { university } from "./pages/university.ts";

/** The router: `#/<page>?<state>`; every view is a link that can be shared. */

const NAV: [string, string][] = [
  ["", "Overview"],
  ["rankings", "Rankings"],
  ["compare", "Compare"],
  ["leaderboards", "Leaderboards"],
  ["regressions", "Regressions"],
  ["methodology", "Methodology"],
];

const PAGES: Record<string, (q: Query, rest: string[]) => Promise<HTMLElement[]>> = {
  "": overview,
  rankings,
  university: (_q, rest) => university(Number(rest[0])),
  compare,
  leaderboards,
  regressions: regressionsPage,
  methodology: methodologyPage,
  diff,
};

const main = document.getElementById("main") as HTMLElement;
const status = document.getElementById("status") as HTMLElement;
let generation = 0;

function parse(): { path: string; query: URLSearchParams } {
  const raw = location.hash.replace(/^#\/?/, "");
  const q = raw.indexOf("?");
  return { path: q < 0 ? raw : raw.slice(0, q), query: new URLSearchParams(q < 0 ? "" : raw.slice(q + 1)) };
}

async function render(): Promise<void> {
  const mine = ++generation;
  const view = location.hash;
  const { path, query } = parse();
  const [section = "", ...rest] = path.split("/");
  // A university or a diff is no menu page: nothing in the menu claims it.
  for (const a of document.querySelectorAll<HTMLAnchorElement>("header nav a")) {
    if (a.dataset.page === section) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  main.setAttribute("aria-busy", "true");
  status.textContent = "Loading…";
  let content: HTMLElement[];
  try {
    await beginView();
    const page = PAGES[section];
    content = page
      ? await page(query, rest)
      : [
          h("h1", {}, "Not found"),
          h("p", {}, "This page does not exist. "),
          h("a", { href: "#/" }, "Go to the overview"),
        ];
  } catch (e) {
    const message = e instanceof ApiError ? e.sentence : "The API could not be reached.";
    content = [h("h1", {}, "Something went wrong"), h("p", { role: "alert", id: "problem" }, message)];
  }
  if (mine !== generation) return;
  main.replaceChildren(...content);
  main.removeAttribute("aria-busy");
  // The address this content was made for: until it equals the address shown, the view is not yet rendered.
  main.dataset.view = view;
  const title = main.querySelector("h1")?.textContent ?? "";
  document.title = `${title} · unirank explorer`;
  status.textContent = `${title} loaded`;
  const wanted = main.querySelector<HTMLElement>("[data-autofocus]");
  window.scrollTo(0, 0);
  (wanted ?? main).focus({ preventScroll: true });
}

document
  .getElementById("nav")
  ?.replaceChildren(...NAV.map(([page, text]) => h("a", { href: `#/${page}`, "data-page": page }, text)));
window.addEventListener("hashchange", () => void render());
void render();
