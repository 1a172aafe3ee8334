import { positiveInt } from "./kit.ts";

/**
 * The command-line options of `measurementParts`, for `scan` and `serve` (which prefixes them `--scan-`): flags,
 * description, and the parser of the value where it is not text (given the flag's name as typed).
 */
export const MEASUREMENT_OPTIONS: readonly [
  flags: string,
  description: string,
  parse?: (flag: string) => (value: string) => unknown,
][] = [
  ["--chromium <path>", "Chromium for speed, Core Web Vitals, mobile and accessibility (env CHROMIUM_PATH)"],
  [
    "--browser-concurrency <n>",
    "universities measured in Chromium at once, across the scans (default 1: pages that compete for the CPU time slower)",
    (flag) => positiveInt(flag, 64),
  ],
  ["--sources <list>", "open indexes to ask: openalex,wikidata,greenweb (env UNIRANK_SOURCES; default none)"],
  ["--openalex-url <url>", "OpenAlex API base URL (env UNIRANK_OPENALEX_URL)"],
  ["--wikidata-url <url>", "Wikidata API base URL (env UNIRANK_WIKIDATA_URL)"],
  ["--greenweb-url <url>", "Green Web Foundation API base URL (env UNIRANK_GREENWEB_URL)"],
];
