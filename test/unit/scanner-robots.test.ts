import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isValidProductToken, normaliseRobotsTxt, parseRobotsTxt } from "../../src/scanner/robots.ts";

/** Google's robotstxt tests (test/reference/google-robotstxt), through unirank's robots.txt reading. */

interface Matching {
  test: string;
  googleOnly: boolean;
  robotstxt: string;
  agent: string;
  url: string;
  allowed: boolean;
}
const data = JSON.parse(
  readFileSync(join(import.meta.dir, "../reference/google-robotstxt/cases.json"), "utf8"),
) as {
  matching: Matching[];
  parsing: {
    test: string;
    robotstxt?: string;
    robotstxtHex?: string;
    expect: { validDirectives?: number; unknownDirectives?: number; lastLine?: number; sitemaps?: string[] };
  }[];
  userAgents: { agent: string; valid: boolean }[];
  paths: unknown[];
  escapes: unknown[];
};

/**
 * Cases unirank answers otherwise, on purpose: it only ever asks about URLs the WHATWG URL parser wrote, which are
 * percent-encoded, and robots-parser encodes a raw URL before matching; the reference matches the raw bytes.
 */
const DIFFERENT = new Set(["ID_Encoding|http://foo.bar/foo/bar/ツ"]);
/** The reference's API with an empty URL (its path counts as "/"): unirank always asks about a URL. */
const NOT_APPLICABLE = new Set(["GoogleOnly_SystemTest|"]);
const key = (c: Matching) => `${c.test}|${c.url}`;
const bytes = (text: string) => new TextEncoder().encode(text);
const robotsUrlOf = (url: string) => {
  try {
    return `${new URL(url).origin}/robots.txt`;
  } catch {
    return "http://foo.bar/robots.txt";
  }
};

describe("google/robotstxt test cases", () => {
  test("the data holds every assertion; the differences are the ones documented", () => {
    expect(data.matching.length).toBe(145);
    expect(data.matching.filter((c) => DIFFERENT.has(key(c))).length).toBe(2);
    expect(data.matching.filter((c) => NOT_APPLICABLE.has(key(c))).length).toBe(4);
  });

  const run = data.matching.filter((c) => !DIFFERENT.has(key(c)) && !NOT_APPLICABLE.has(key(c)));
  test.each(run.map((c, i) => [`${c.test} #${i}`, c] as const))("%s", (_, c) => {
    const rules = parseRobotsTxt(robotsUrlOf(c.url), bytes(c.robotstxt));
    expect(rules.isAllowed(c.url, c.agent)).toBe(c.allowed);
  });

  test.each(
    data.matching.filter((c) => DIFFERENT.has(key(c))).map((c, i) => [`${c.test} #${i}`, c] as const),
  )("%s: a raw URL is percent-encoded before matching (documented difference)", (_, c) => {
    const rules = parseRobotsTxt(robotsUrlOf(c.url), bytes(c.robotstxt));
    expect(rules.isAllowed(c.url, c.agent)).toBe(!c.allowed);
    expect(rules.isAllowed(new URL(c.url).href, c.agent)).toBe(rules.isAllowed(c.url, c.agent));
  });

  // The parse handler's counts, observed through the rules: a recognised Allow line decides for its agent.
  test.each(data.parsing.map((c) => [c.test, c] as const))("%s", (_, c) => {
    const body = c.robotstxtHex
      ? Uint8Array.from(Buffer.from(c.robotstxtHex, "hex"))
      : bytes(c.robotstxt as string);
    const rules = parseRobotsTxt("http://foo.bar/robots.txt", body);
    const e = c.expect;
    if (e.sitemaps) expect(rules.sitemaps).toEqual(e.sitemaps);
    if (e.lastLine !== undefined) {
      // Line 6 is the Disallow of the agent "bar" whatever the line endings; line 2 the Allow of "foo".
      expect(rules.matchingLine("http://foo.bar/x", "bar")).toBe(e.lastLine);
      expect(rules.matchingLine("http://foo.bar/some/path", "foo")).toBe(2);
    }
    if (e.validDirectives !== undefined && e.unknownDirectives !== undefined)
      expect(rules.matchingLine("http://foo.bar/AnyValue", "foo")).toBe(e.unknownDirectives === 0 ? 2 : -1);
  });

  test.each(data.userAgents.map((c) => [JSON.stringify(c.agent), c] as const))(
    "IsValidUserAgentToObey(%s)",
    (_, c) => {
      expect(isValidProductToken(c.agent)).toBe(c.valid);
    },
  );

  test("a sitemap or an unknown line inside a group does not end it", () => {
    const text = "User-agent: FooBot\nSitemap: https://foo.bar/s.xml\nUser-agent: BarBot\nDisallow: /\n";
    const rules = parseRobotsTxt("http://foo.bar/robots.txt", bytes(text));
    expect(rules.isAllowed("http://foo.bar/x", "FooBot")).toBe(false);
    expect(normaliseRobotsTxt(bytes(text)).sitemaps).toEqual(["https://foo.bar/s.xml"]);
  });
});
