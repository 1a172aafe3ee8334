import { ApiError, beginView } from "./api.ts";
import { h } from "./dom.ts";
import { compare, leaderboards, overview, rankings, regressionsPage, university } from "./pages.ts";

/** The router: `#/<page>?<state>`; every view is a link that can be shared. */

const NAV: [string, string][] = [
  ["", "Overview"],
  ["rankings", "Rankings"],
  ["compare", "Compare"],
  ["leaderboards", "Leaderboards"],
  ["regressions", "Regressions"],
];

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
  const { path, query } = parse();
  const section = path.split("/")[0] ?? "";
  for (const a of document.querySelectorAll<HTMLAnchorElement>("header nav a")) {
    if (a.dataset.page === (section === "university" ? "rankings" : section))
      a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  main.setAttribute("aria-busy", "true");
  status.textContent = "Loading…";
  let content: HTMLElement[];
  let title = "";
  try {
    await beginView();
    if (section === "") content = await overview(query);
    else if (section === "rankings") content = await rankings(query);
    else if (section === "university") content = await university(Number(path.split("/")[1]));
    else if (section === "compare") content = await compare(query);
    else if (section === "leaderboards") content = await leaderboards(query);
    else if (section === "regressions") content = await regressionsPage(query);
    else
      content = [
        h("h1", {}, "Not found"),
        h("p", {}, "This page does not exist. "),
        h("a", { href: "#/" }, "Go to the overview"),
      ];
  } catch (e) {
    const message = e instanceof ApiError ? `${e.message} (${e.code})` : "The API could not be reached.";
    content = [h("h1", {}, "Something went wrong"), h("p", { role: "alert" }, message)];
  }
  if (mine !== generation) return;
  main.replaceChildren(...content);
  main.removeAttribute("aria-busy");
  title = main.querySelector("h1")?.textContent ?? "";
  document.title = `${title} · unirank explorer`;
  status.textContent = `${title} loaded`;
  main.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

document
  .getElementById("nav")
  ?.replaceChildren(...NAV.map(([page, text]) => h("a", { href: `#/${page}`, "data-page": page }, text)));
window.addEventListener("hashchange", () => void render());
void render();
