import robotsParser from "robots-parser";

/**
 * robots.txt as RFC 9309 and Google's reference parser (google/robotstxt) read it, through `robots-parser`: the
 * file is normalised first so that the library agrees with the reference (see docs/scanner.md).
 */

/** Google's line limit: 8 × 2083 bytes of a line are read, the rest ignored. */
const MAX_LINE_BYTES = 2083 * 8 - 1;
const BOM = [0xef, 0xbb, 0xbf];
/** ASCII white space only: a stray U+FEFF inside the file stays part of its line, as in the reference. */
const trim = (s: string) => s.replace(/^[ \t\v\f]+|[ \t\v\f]+$/g, "");

export interface RobotsRules {
  /** Whether `agent` (a product token, or `*`) may fetch `url` (on the robots.txt's origin). */
  isAllowed(url: string, agent: string): boolean;
  /** The line of the rule that decides, or -1 when none does. */
  matchingLine(url: string, agent: string): number;
  sitemaps: string[];
}

/** The product token a `User-agent` value names: its leading letters, `-` and `_` (`FOO BAR` → `FOO`); `*` stays. */
export function productToken(value: string): string {
  if (value === "*" || /^\*\s/.test(value)) return "*";
  return /^[A-Za-z_-]*/.exec(value)?.[0] ?? "";
}

/** Whether a crawler's name is a valid product token (RFC 9309 §2.2.1: letters, `-` and `_`). */
export const isValidProductToken = (name: string) => name.length > 0 && productToken(name) === name;

/** The directive a line's key names, as the reference parser recognises keys (prefixes and frequent typos). */
function keyType(key: string): "user-agent" | "allow" | "disallow" | "sitemap" | null {
  const k = key.toLowerCase();
  if (k.startsWith("user-agent") || k.startsWith("useragent") || k.startsWith("user agent"))
    return "user-agent";
  if (k.startsWith("allow")) return "allow";
  if (/^(disallow|dissallow|dissalow|disalow|diasllow|disallaw)/.test(k)) return "disallow";
  if (k.startsWith("sitemap") || k.startsWith("site-map")) return "sitemap";
  return null;
}

/**
 * Rewrites robots.txt for `robots-parser` the way the reference parser reads it: a byte-order mark (or part of
 * one) skipped, lines cut at 16,663 bytes, a missing colon tolerated, keys recognised by prefix, `User-agent`
 * values cut to the product token, other lines (sitemaps, unknown keys) blanked so they do not end a group, and
 * an allowed `…/index.html` also allowing its directory. Line numbers are kept, apart from the added lines.
 */
export function normaliseRobotsTxt(body: Uint8Array): { text: string; sitemaps: string[] } {
  let start = 0;
  while (start < BOM.length && body[start] === BOM[start]) start++;
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const lines: string[] = [];
  const sitemaps: string[] = [];
  for (let raw of decoder.decode(body.subarray(start)).split(/\r\n|\r|\n/)) {
    const bytes = encoder.encode(raw);
    if (bytes.length > MAX_LINE_BYTES) raw = decoder.decode(bytes.subarray(0, MAX_LINE_BYTES));
    const line = trim(raw.replace(/#.*$/, ""));
    let sep = line.indexOf(":");
    let key: string;
    let value: string;
    if (sep >= 0) {
      key = trim(line.slice(0, sep));
      value = trim(line.slice(sep + 1));
    } else {
      // Google-specific: "disallow /" means "disallow: /" (exactly two words).
      const two = /^(\S+)[ \t]+(\S+)$/.exec(line);
      sep = two ? 0 : -1;
      key = two?.[1] ?? "";
      value = two?.[2] ?? "";
    }
    const type = sep >= 0 && key !== "" ? keyType(key) : null;
    if (type === "sitemap") {
      if (value) sitemaps.push(value);
      lines.push("");
    } else if (type === "user-agent") lines.push(`User-agent: ${productToken(value)}`);
    else if (type === "allow") {
      lines.push(`Allow: ${value}`);
      // Google-specific: allowing …/index.htm(l) allows the directory too.
      const slash = value.lastIndexOf("/");
      if (slash >= 0 && value.slice(slash).startsWith("/index.htm"))
        lines.push(`Allow: ${value.slice(0, slash + 1)}$`);
    } else if (type === "disallow") lines.push(`Disallow: ${value}`);
    else lines.push("");
  }
  return { text: lines.join("\n"), sitemaps };
}

/** Parses a robots.txt served at `robotsUrl`. */
export function parseRobotsTxt(robotsUrl: string, body: Uint8Array): RobotsRules {
  const { text, sitemaps } = normaliseRobotsTxt(body);
  const parsed = robotsParser(robotsUrl, text);
  return {
    isAllowed: (url, agent) => parsed.isAllowed(url, agent) !== false,
    matchingLine: (url, agent) => parsed.getMatchingLineNumber(url, agent) ?? -1,
    sitemaps,
  };
}
