/** Defaults of a scan (docs/scanner.md); kept apart so the CLI's help needs no scanner module. */
export const SCANNER_DEFAULTS = {
  maxPages: 20,
  requestTimeoutMs: 10_000,
  scanTimeoutMs: 120_000,
  maxBytes: 5 * 1024 * 1024,
  delayMs: 200,
} as const;
