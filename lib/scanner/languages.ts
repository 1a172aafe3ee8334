import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { checkTable, earned } from "./rubric/check-table.ts";
import { scoredFrom, tiered } from "./rubric/points.ts";

export const HREFLANG_CHECKS = checkTable("i18n_hreflang_score", "bcp47", {
  langHome: {
    id: "lang.home",
    label: "lang on the home page",
    max: 30,
    earns: "the home page's <html lang> is a language tag",
    remediation: 'Set <html lang="…"> on the home page.',
  },
  langPages: {
    id: "lang.pages",
    label: "lang on every crawled page",
    max: 30,
    earns: "× the share of crawled pages with a lang, rounded",
    remediation: "Set <html lang> on every page.",
  },
  present: {
    id: "hreflang.present",
    label: "hreflang alternates",
    max: 20,
    earns: "the home page links alternates with hreflang",
    remediation: 'Link each translation with <link rel="alternate" hreflang>.',
  },
  xDefault: {
    id: "hreflang.x-default",
    label: "hreflang x-default",
    max: 10,
    earns: "one of them is x-default",
    remediation: 'Add hreflang="x-default".',
  },
  self: {
    id: "hreflang.self",
    label: "hreflang names the page itself",
    max: 10,
    earns: "the alternates include the page itself (its URL or canonical)",
    remediation: "Include the page itself among its hreflang alternates.",
  },
});
export const I18N_CHECKS = checkTable("i18n_score", "unirank", {
  languages: {
    id: "i18n.languages",
    label: "Languages offered",
    max: 100,
    earns:
      "distinct primary languages among the crawled pages' lang and the home page's hreflang alternates: 1 → 20, 2 → 50, 3 → 80, 4 or more → 100, none → 0",
    remediation: "Offer the main pages in more languages and link the translations.",
  },
});

/** The primary language subtag of a BCP 47 tag (`en-GB` → `en`), or null when it is not one. */
export function primaryLanguage(tag: string | null | undefined): string | null {
  const m = /^\s*([a-z]{2,3})(?:[-_][a-z0-9]{1,8})*\s*$/i.exec(tag ?? "");
  return m?.[1] ? m[1].toLowerCase() : null;
}

/** i18n_hreflang_score: lang on the home page and the crawled pages, hreflang alternates on the home page. */
export function scoreHreflang(o: Observations): ScoredPart {
  const S = "i18n_hreflang_score" as const;
  const C = HREFLANG_CHECKS;
  const home = o.pages[0];
  const homeLang = primaryLanguage(home?.lang);
  const withLang = o.pages.filter((p) => primaryLanguage(p.lang)).length;
  const share = o.pages.length === 0 ? 0 : withLang / o.pages.length;
  const alts = home?.hreflang ?? [];
  const xDefault = alts.some((a) => a.lang.toLowerCase() === "x-default");
  const self = home !== undefined && alts.some((a) => a.href === home.url || a.href === home.canonical);
  return scoredFrom(S, [
    earned(C.langHome, homeLang ? 30 : 0, home?.lang ? `lang="${home.lang}"` : "no lang attribute"),
    earned(C.langPages, Math.round(30 * share), `${withLang} of ${o.pages.length} pages declare lang`),
    earned(C.present, alts.length > 0 ? 20 : 0, `${alts.length} hreflang link(s) on the home page`),
    earned(C.xDefault, xDefault ? 10 : 0, xDefault ? "x-default declared" : "no x-default"),
    earned(C.self, self ? 10 : 0, self ? "the page lists itself" : "the page does not list itself"),
  ]);
}

/** The languages a site offers: its pages' lang and the home page's hreflang alternates. */
export function siteLanguages(o: Observations): string[] {
  const langs = new Set<string>();
  for (const p of o.pages) {
    const l = primaryLanguage(p.lang);
    if (l) langs.add(l);
  }
  for (const a of o.pages[0]?.hreflang ?? []) {
    const l = primaryLanguage(a.lang);
    if (l) langs.add(l);
  }
  return [...langs].sort();
}

/** i18n_score: how many languages the site offers. */
export function scoreI18n(o: Observations): ScoredPart {
  const S = "i18n_score" as const;
  const langs = siteLanguages(o);
  return scoredFrom(S, [
    earned(
      I18N_CHECKS.languages,
      tiered(langs.length, [
        [4, 100],
        [3, 80],
        [2, 50],
        [1, 20],
      ]),
      langs.length ? `${langs.length} language(s): ${langs.join(", ")}` : "no language declared",
    ),
  ]);
}
