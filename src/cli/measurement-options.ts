/** The command-line options of `measurementParts`, for `scan` and `serve`. */
export const MEASUREMENT_OPTIONS: readonly [flags: string, description: string][] = [
  ["--chromium <path>", "Chromium for speed, Core Web Vitals, mobile and accessibility (env CHROMIUM_PATH)"],
  ["--sources <list>", "open indexes to ask: openalex,wikidata,greenweb (env UNIRANK_SOURCES; default none)"],
  ["--openalex-url <url>", "OpenAlex API base URL (env UNIRANK_OPENALEX_URL)"],
  ["--wikidata-url <url>", "Wikidata API base URL (env UNIRANK_WIKIDATA_URL)"],
  ["--greenweb-url <url>", "Green Web Foundation API base URL (env UNIRANK_GREENWEB_URL)"],
];
