import {
  type PartContext,
  pickItem,
  type ScanTarget,
  type ScoredPart,
  scoreWikidata,
  unmeasuredPart,
  WikidataEntities,
  type WikidataObservations,
  WikidataSearch,
} from "../../../lib/scanner/index.ts";
import { fetchJson, requestOptions, type SourceOptions, trimBase } from "./fetch-json.ts";

export const WIKIDATA_BASE_URL = "https://www.wikidata.org";
const SCORES = ["presence_wikipedia_score"] as const;

/**
 * Wikidata: searches items by the university's name (`wbsearchentities`), reads their official website (P856)
 * and sitelinks (`wbgetentities`), and counts the Wikipedia editions of the item on the university's domain.
 */
export function wikidataPart(options: SourceOptions & { language?: string } = {}) {
  const api = `${trimBase(options.baseUrl ?? WIKIDATA_BASE_URL)}/w/api.php`;
  return async (
    target: ScanTarget,
    context: PartContext,
  ): Promise<ScoredPart & { observations?: WikidataObservations }> => {
    if (!target.name) return unmeasuredPart(SCORES, "no university name to search Wikidata with");
    const req = requestOptions(options, context.userAgent, context.signal);
    const search = await fetchJson<WikidataSearch>(
      "Wikidata",
      `${api}?${new URLSearchParams({
        action: "wbsearchentities",
        search: target.name,
        language: options.language ?? "en",
        type: "item",
        limit: "10",
        format: "json",
      })}`,
      WikidataSearch,
      req,
    );
    if (!search.ok) return unmeasuredPart(SCORES, search.reason);
    const ids = search.value.search.map((s) => s.id);
    if (ids.length === 0) return unmeasuredPart(SCORES, `Wikidata has no item named like "${target.name}"`);
    const entities = await fetchJson<WikidataEntities>(
      "Wikidata",
      `${api}?${new URLSearchParams({ action: "wbgetentities", ids: ids.join("|"), props: "sitelinks|claims", format: "json" })}`,
      WikidataEntities,
      req,
    );
    if (!entities.ok) return unmeasuredPart(SCORES, entities.reason);
    const observations = pickItem(entities.value, ids, target.domain);
    if (observations === null) {
      return unmeasuredPart(
        SCORES,
        `no Wikidata item named like "${target.name}" has its website on ${target.domain}`,
      );
    }
    return { ...scoreWikidata(observations), observations };
  };
}
