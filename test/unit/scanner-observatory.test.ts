import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CspSyntaxError, parseCsp } from "../../lib/scanner/csp-parser.ts";
import type { Observations } from "../../lib/scanner/observations.ts";
import {
  cspTest,
  gradeForScore,
  hstsTest,
  OBSERVATORY_RESULTS,
  type ObservatoryExpectation,
  type ObservatoryPage,
  redirectionTest,
  referrerPolicyTest,
  xContentTypeOptionsTest,
  xFrameOptionsTest,
} from "../../lib/scanner/observatory.ts";
import { scoreSecurityHeaders } from "../../lib/scanner/security-headers.ts";
import { parsePage } from "../../src/scanner/html.ts";
import { goodObservations } from "../support/scanner-observations.ts";

/** The HTTP Observatory's own test cases (test/reference/observatory-1.6.3), run through unirank's code. */

const DIR = join(import.meta.dir, "../reference/observatory-1.6.3");
interface Case {
  test: string;
  from: string;
  headers?: Record<string, string>;
  html?: string;
  http?: { route: string[] } | null;
  https?: null;
  verified?: boolean;
  score?: number;
  result?: ObservatoryExpectation;
  site?: string;
  notApplicable?: string;
  expect: Record<string, unknown>;
}
const data = JSON.parse(readFileSync(join(DIR, "cases.json"), "utf8")) as {
  defaults: { url: string; route: string[]; verified: boolean };
  cases: Case[];
  parser: {
    from: string;
    policies: string[];
    throws?: boolean;
    expect?: Record<string, string[]>;
    duplicates?: string[];
  }[];
};
const { defaults } = data;
const runnable = data.cases.filter((c) => !c.notApplicable);

function pageOf(c: Case): ObservatoryPage {
  const headers = { "content-type": "text/html", ...c.headers };
  if (!c.html) return { url: defaults.url, headers, metaCsp: [], metaReferrer: null };
  const html = readFileSync(join(DIR, "files", c.html));
  const parsed = parsePage(defaults.url, 200, {}, html, false);
  return {
    url: defaults.url,
    headers,
    metaCsp: parsed.meta_csp ?? [],
    metaReferrer: parsed.meta_referrer ?? null,
  };
}

/** The same case as scan observations, for the rubric itself. */
function observationsOf(c: Case): Observations {
  const page = pageOf(c);
  const route = c.http === null ? [] : (c.http?.route ?? defaults.route);
  const o = goodObservations({
    home: { url: page.url, status: 200, headers: { ...page.headers }, verified: c.verified ?? true },
    http_redirect: {
      reachable: c.http !== null,
      chain: c.http === null ? ["http://mozilla.org/"] : route,
      final_url: c.http === null ? null : (route.at(-1) ?? null),
      error: null,
      verified: c.verified ?? true,
    },
  });
  const home = o.pages[0] as Observations["pages"][number];
  o.pages[0] = { ...home, meta_csp: page.metaCsp.length ? [...page.metaCsp] : undefined };
  if (page.metaReferrer) (o.pages[0] as { meta_referrer?: string }).meta_referrer = page.metaReferrer;
  return o;
}

/** What the case's test reports, in the suite's own field names. */
function run(c: Case): Record<string, unknown> {
  const page = pageOf(c);
  switch (c.test) {
    case "content-security-policy":
      return { ...cspTest(page) };
    case "x-frame-options": {
      const r = xFrameOptionsTest(page);
      return { ...r, modifier: OBSERVATORY_RESULTS[r.result].modifier };
    }
    case "x-content-type-options":
      return { ...xContentTypeOptionsTest(page) };
    case "referrer-policy":
      return { ...referrerPolicyTest(page) };
    case "redirection":
      return {
        ...redirectionTest({
          reachable: c.http !== null,
          route: c.http?.route ?? defaults.route,
          verified: c.verified ?? defaults.verified,
        }),
      };
    case "strict-transport-security":
      return {
        ...hstsTest(
          c.https === null ? null : { headers: page.headers, verified: c.verified ?? defaults.verified },
        ),
      };
    case "grade":
      return gradeForScore(c.score as number);
    case "modifier":
      return { modifier: OBSERVATORY_RESULTS[c.result as ObservatoryExpectation].modifier };
  }
  throw new Error(`unknown test ${c.test}`);
}

/** The expected fields of a case, compared one by one (objects by the keys the case names). */
function agrees(c: Case, got: Record<string, unknown>): string[] {
  const wrong: string[] = [];
  for (const [key, want] of Object.entries(c.expect)) {
    if (key === "resultNot") {
      if (got.result === want) wrong.push(`result is ${String(want)}`);
    } else if (key === "dataHas") {
      for (const [d, sources] of Object.entries(want as Record<string, string[]>))
        if (JSON.stringify((got.data as Record<string, string[]>)?.[d]) !== JSON.stringify(sources))
          wrong.push(`data.${d}`);
    } else if (key === "policy") {
      for (const [flag, value] of Object.entries(want as Record<string, boolean>))
        if ((got.policy as Record<string, boolean> | null)?.[flag] !== value) wrong.push(`policy.${flag}`);
    } else if (JSON.stringify(got[key]) !== JSON.stringify(want))
      wrong.push(`${key}: ${JSON.stringify(got[key])} ≠ ${JSON.stringify(want)}`);
  }
  return wrong;
}

describe("HTTP Observatory 1.6.3 test cases", () => {
  test("the data holds every test the rubric follows, with the preload-list cases set aside", () => {
    expect([...new Set(data.cases.map((c) => c.test))].sort()).toEqual([
      "content-security-policy",
      "grade",
      "modifier",
      "redirection",
      "referrer-policy",
      "strict-transport-security",
      "x-content-type-options",
      "x-frame-options",
    ]);
    expect(data.cases.filter((c) => c.notApplicable).map((c) => c.from)).toEqual([
      "redirection.test.js › checks for all redirections preloaded",
      "strict-transport-security.test.js › preloaded (bugzilla.mozilla.org)",
      "strict-transport-security.test.js › preloaded (facebook.com)",
    ]);
  });

  test.each(runnable.map((c, i) => [`${c.from} #${i}`, c] as const))("%s", (_, c) => {
    expect(agrees(c, run(c))).toEqual([]);
  });

  const scored = runnable.filter((c) =>
    [
      "content-security-policy",
      "x-frame-options",
      "x-content-type-options",
      "referrer-policy",
      "redirection",
    ].includes(c.test),
  );
  const CHECK: Record<string, string> = {
    "content-security-policy": "headers.csp",
    "x-frame-options": "headers.frame-options",
    "x-content-type-options": "headers.content-type-options",
    "referrer-policy": "headers.referrer-policy",
    redirection: "headers.redirection",
  };
  test.each(scored.map((c, i) => [`${c.from} #${i}`, c] as const))(
    "the rubric scores %s with the Observatory's modifier",
    (_, c) => {
      const result = run(c).result as ObservatoryExpectation;
      const part = scoreSecurityHeaders(observationsOf(c));
      const checkPoints = part.checks.find((x) => x.id === CHECK[c.test])?.points;
      expect(checkPoints).toBe(OBSERVATORY_RESULTS[result].modifier);
      expect(part.grades?.tech_security_headers_score?.tests[c.test]?.result).toBe(result);
    },
  );

  test.each(data.parser.map((c, i) => [`${c.from} #${i}`, c] as const))("%s", (_, c) => {
    if (c.throws) {
      expect(() => parseCsp(c.policies)).toThrow(CspSyntaxError);
      return;
    }
    const parsed = parseCsp(c.policies);
    if (c.expect)
      expect(Object.fromEntries([...parsed.directives].map(([d, s]) => [d, [...s].sort()]))).toEqual(
        c.expect,
      );
    expect([...parsed.duplicates]).toEqual(c.duplicates ?? []);
  });
});
