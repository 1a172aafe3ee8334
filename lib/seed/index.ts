/** `unirank/seed`: a reproducible synthetic dataset (universities with scans) for demos and tests. */
export { DEFAULT_ANCHOR, type GenerateOptions, generateDataset } from "./generate.ts";
