/** `unirank/scanner`: the scanner's pure side — observation types and the rubrics that turn them into points. */
export * from "./browser/accessibility-rubric.ts";
export * from "./browser/log-normal.ts";
export * from "./browser/mobile-rubric.ts";
export * from "./browser/observations.ts";
export * from "./browser/rubric.ts";
export * from "./browser/speed-rubric.ts";
export * from "./browser/web-vitals-rubric.ts";
export * from "./check.ts";
export * from "./part.ts";
export * from "./sources/greenweb.ts";
export * from "./sources/host-match.ts";
export * from "./sources/openalex.ts";
export * from "./sources/wikidata.ts";
