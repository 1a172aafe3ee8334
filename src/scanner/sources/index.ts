import type { ScoreName } from "../../../lib/index.ts";
import { PART_MEASURES, type ScanPart, unmeasuredPart } from "../../../lib/scanner/index.ts";
import type { SourceOptions } from "./fetch-json.ts";
import { greenWebPart } from "./greenweb-part.ts";
import { openAlexPart } from "./openalex-part.ts";
import { wikidataPart } from "./wikidata-part.ts";

export { greenWebPart } from "./greenweb-part.ts";
export { openAlexPart } from "./openalex-part.ts";
export { wikidataPart } from "./wikidata-part.ts";

export const SOURCE_NAMES = ["openalex", "wikidata", "greenweb"] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

/** Parses `--sources a,b` (empty or "none" = off); unknown names are an error naming them. */
export function parseSources(text: string | undefined): SourceName[] {
  const names = (text ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== "" && s !== "none");
  const unknown = names.filter((n) => !(SOURCE_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw new Error(`unknown source ${unknown.join(", ")} (known: ${SOURCE_NAMES.join(", ")})`);
  }
  return [...new Set(names)] as SourceName[];
}

/** The sub-scores each source measures (its part in the profile). */
export const SOURCE_SCORES: Record<SourceName, readonly ScoreName[]> = {
  openalex: PART_MEASURES.openalex,
  wikidata: PART_MEASURES.wikidata,
  greenweb: PART_MEASURES.greenweb,
};

/**
 * One part per source: the enabled ones ask their source (each at its own base URL) and name themselves in the
 * scan's profile; the others are not asked and leave their sub-scores null with the reason.
 */
export function sourceParts(
  enabled: readonly SourceName[],
  options: Partial<Record<SourceName, SourceOptions>> = {},
): ScanPart[] {
  const make: Record<SourceName, (o: SourceOptions) => ScanPart> = {
    openalex: openAlexPart,
    wikidata: wikidataPart,
    greenweb: greenWebPart,
  };
  return SOURCE_NAMES.map((name) => {
    if (enabled.includes(name)) return Object.assign(make[name](options[name] ?? {}), { profile: name });
    const off = unmeasuredPart(SOURCE_SCORES[name], `the ${name} source is off (--sources)`);
    return async () => structuredClone(off);
  });
}
