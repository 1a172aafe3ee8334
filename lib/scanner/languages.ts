import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { check, scoredFrom, tiered } from "./points.ts";

/** The primary language subtag of a BCP 47 tag (`en-GB` → `en`), or null when it is not one. */
export function primaryLanguage(tag: string | null | undefined): string | null {
  const m = /^\s*([a-z]{2,3})(?:[-_][a-z0-9]{1,8})*\s*$/i.exec(tag ?? "");
  return m?.[1] ? m[1].toLowerCase() : null;
}

/** i18n_hreflang_score: lang on the home page and the crawled pages, hreflang alternates on the home page. */
export function scoreHreflang(o: Observations): ScoredPart {
  const S = "i18n_hreflang_score" as const;
  const home = o.pages[0];
  const homeLang = primaryLanguage(home?.lang);
  const withLang = o.pages.filter((p) => primaryLanguage(p.lang)).length;
  const share = o.pages.length === 0 ? 0 : withLang / o.pages.length;
  const alts = home?.hreflang ?? [];
  const xDefault = alts.some((a) => a.lang.toLowerCase() === "x-default");
  const self = home !== undefined && alts.some((a) => a.href === home.url || a.href === home.canonical);
  return scoredFrom(S, [
    check(
      S,
      "lang.home",
      "lang on the home page",
      homeLang ? 30 : 0,
      30,
      home?.lang ? `lang="${home.lang}"` : "no lang attribute",
      'Set <html lang="…"> on the home page.',
    ),
    check(
      S,
      "lang.pages",
      "lang on every crawled page",
      Math.round(30 * share),
      30,
      `${withLang} of ${o.pages.length} pages declare lang`,
      "Set <html lang> on every page.",
    ),
    check(
      S,
      "hreflang.present",
      "hreflang alternates",
      alts.length > 0 ? 20 : 0,
      20,
      `${alts.length} hreflang link(s) on the home page`,
      'Link each translation with <link rel="alternate" hreflang>.',
    ),
    check(
      S,
      "hreflang.x-default",
      "hreflang x-default",
      xDefault ? 10 : 0,
      10,
      xDefault ? "x-default declared" : "no x-default",
      'Add hreflang="x-default".',
    ),
    check(
      S,
      "hreflang.self",
      "hreflang names the page itself",
      self ? 10 : 0,
      10,
      self ? "the page lists itself" : "the page does not list itself",
      "Include the page itself among its hreflang alternates.",
    ),
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
    check(
      S,
      "i18n.languages",
      "Languages offered",
      tiered(langs.length, [
        [4, 100],
        [3, 80],
        [2, 50],
        [1, 20],
      ]),
      100,
      langs.length ? `${langs.length} language(s): ${langs.join(", ")}` : "no language declared",
      "Offer the main pages in more languages and link the translations.",
    ),
  ]);
}
