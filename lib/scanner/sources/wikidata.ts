import { type Static, Type } from "@sinclair/typebox";
import type { ScoredPart } from "../../scores/check-points.ts";
import { checkTable, earned } from "../rubric/check-table.ts";
import { scoreFromChecks } from "../rubric/points.ts";
import { logShare, sameSite } from "./host-match.ts";

/** `action=wbsearchentities` answer: the matching items. */
export const WikidataSearch = Type.Object({
  search: Type.Array(
    Type.Object({ id: Type.String({ pattern: "^Q[0-9]+$" }), label: Type.Optional(Type.String()) }),
  ),
});
export type WikidataSearch = Static<typeof WikidataSearch>;

const Snak = Type.Object({
  mainsnak: Type.Object({ datavalue: Type.Optional(Type.Object({ value: Type.Unknown() })) }),
});

/** `action=wbgetentities&props=sitelinks|claims` answer (the official website P856 and the sitelinks are read). */
export const WikidataEntities = Type.Object({
  entities: Type.Record(
    Type.String(),
    Type.Object({
      id: Type.String(),
      sitelinks: Type.Optional(
        Type.Record(Type.String(), Type.Object({ site: Type.String(), title: Type.String() })),
      ),
      claims: Type.Optional(Type.Record(Type.String(), Type.Array(Snak))),
    }),
  ),
});
export type WikidataEntities = Static<typeof WikidataEntities>;

/** What Wikidata says of the university. */
export const WikidataObservations = Type.Object({
  item: Type.String(),
  website: Type.String(),
  /** Wikipedia editions with an article, as site ids (`enwiki`, `dewiki` …). */
  wikipedias: Type.Array(Type.String()),
});
export type WikidataObservations = Static<typeof WikidataObservations>;

/** Sites whose id ends in `wiki` but are not language editions of Wikipedia. */
const NOT_WIKIPEDIA = new Set([
  "commonswiki",
  "specieswiki",
  "metawiki",
  "mediawikiwiki",
  "wikidatawiki",
  "sourceswiki",
  "outreachwiki",
  "wikimaniawiki",
  "foundationwiki",
  "incubatorwiki",
  "wikifunctionswiki",
  "testwiki",
  "test2wiki",
  "testwikidatawiki",
]);

/** The Wikipedia site ids among an item's sitelinks. */
export function wikipediaSites(sitelinks: Record<string, { site: string }>): string[] {
  return Object.values(sitelinks)
    .map((l) => l.site)
    .filter((s) => /^[a-z][a-z0-9_]*wiki$/.test(s) && !NOT_WIKIPEDIA.has(s))
    .sort();
}

/** The official websites (P856) of an entity. */
export function officialWebsites(entity: WikidataEntities["entities"][string]): string[] {
  return (entity.claims?.P856 ?? [])
    .map((c) => c.mainsnak.datavalue?.value)
    .filter((v): v is string => typeof v === "string");
}

/** The first searched item whose official website is on the university's domain. */
export function pickItem(
  entities: WikidataEntities,
  order: readonly string[],
  domain: string,
): WikidataObservations | null {
  for (const id of order) {
    const e = entities.entities[id];
    if (!e) continue;
    const website = officialWebsites(e).find((w) => sameSite(w, domain));
    if (website) return { item: id, website, wikipedias: wikipediaSites(e.sitelinks ?? {}) };
  }
  return null;
}

/** Languages at which the language check earns all its points. */
export const WIKIPEDIA_FULL_LANGUAGES = 50;

export const WIKIPEDIA_CHECKS = checkTable("presence_wikipedia_score", "wikidata", {
  article: {
    id: "wikipedia.article",
    label: "Wikipedia article",
    max: 40,
    earns: "at least one Wikipedia article",
    remediation: "A neutral, sourced Wikipedia article about the university, linked from its Wikidata item.",
  },
  languages: {
    id: "wikipedia.languages",
    label: "Wikipedia languages",
    max: 60,
    earns: "`60 × log10(1+n) / log10(1+50)` for `n` language editions, capped",
    remediation: "Articles in the languages of the university's students and partners.",
  },
});

/** Wikipedia presence: an article in any language 40 points, languages 60 points on a log scale (full at 50). */
export function scoreWikidata(o: WikidataObservations): ScoredPart {
  const n = o.wikipedias.length;
  const article = earned(
    WIKIPEDIA_CHECKS.article,
    n > 0 ? 40 : 0,
    n > 0 ? `${o.item} has Wikipedia articles.` : `${o.item} has no Wikipedia article.`,
  );
  const languages = earned(
    WIKIPEDIA_CHECKS.languages,
    60 * logShare(n, WIKIPEDIA_FULL_LANGUAGES),
    `Articles in ${n} language${n === 1 ? "" : "s"} (60 points at ${WIKIPEDIA_FULL_LANGUAGES}).`,
  );
  const checks = [article, languages];
  return { scores: { presence_wikipedia_score: scoreFromChecks(checks) }, checks, unmeasured: {} };
}
