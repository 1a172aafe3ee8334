/**
 * The version of unirank's rubrics: every scan the scanner scores names it (`scans.rubric_version`), and
 * `unirank rescore` brings scans scored under an older one up to date from their evidence. It goes up whenever
 * a change to any rubric can change a score of the same evidence; docs/scanner.md lists the versions.
 */
export const RUBRIC_VERSION = 2;

/** Each version and what it changed, newest last (docs/scanner.md shows the same list). */
export const RUBRIC_VERSIONS: readonly { version: number; summary: string }[] = [
  { version: 1, summary: "The scanner's first rubrics." },
  {
    version: 2,
    summary:
      "Rubrics follow their references: security headers as the MDN HTTP Observatory 1.6.3, SPF per RFC 7208, " +
      "DMARC per RFC 7489, HSTS per RFC 6797 (no points over a refused certificate), TLS capped at 20 for " +
      "certificates browsers refuse, robots.txt as Google's reference parser reads it, well-known files only " +
      "when plausible.",
  },
];
