import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  type GreenCheck,
  type OpenAlexObservations,
  sameSite,
  scoreGreenCheck,
  scoreOpenAlex,
  scoreWikidata,
  siteHost,
} from "../../lib/scanner/index.ts";
import type { ScoredPart } from "../../lib/scores/check-points.ts";
import { chromiumPath, sourceSettings } from "../../src/config.ts";
import {
  greenWebPart,
  openAlexPart,
  parseSources,
  SOURCE_NAMES,
  sourceParts,
  wikidataPart,
} from "../../src/scanner/sources/index.ts";

/**
 * The three open indexes against loopback servers answering in their documented shapes (extra fields included,
 * as the real services send them), plus a server that is down, one that answers garbage, one that answers JSON of
 * another shape, one that fails, one too slow and one too large.
 */

const points = (part: ScoredPart) => Object.fromEntries(part.checks.map((c) => [c.id, [c.points, c.max]]));
const ctx = { userAgent: "unirank/0.1 (+https://example.org/contact)" };

const institution = (
  id: string,
  name: string,
  homepage: string | null,
  extra: Record<string, unknown> = {},
) => ({
  id: `https://openalex.org/${id}`,
  ror: "https://ror.org/000000000",
  display_name: name,
  country_code: "GB",
  type: "education",
  homepage_url: homepage,
  works_count: 180_000,
  cited_by_count: 5_000_000,
  summary_stats: { "2yr_mean_citedness": 2.0, h_index: 500, i10_index: 90_000 },
  counts_by_year: [
    { year: 2026, works_count: 5000, cited_by_count: 1 },
    { year: 2025, works_count: 300, cited_by_count: 1 },
    { year: 2024, works_count: 300, cited_by_count: 1 },
    { year: 2023, works_count: 200, cited_by_count: 1 },
    { year: 2022, works_count: 100, cited_by_count: 1 },
    { year: 2021, works_count: 99, cited_by_count: 1 },
    { year: 2020, works_count: 7777, cited_by_count: 1 },
  ],
  geo: { city: "Oxford", country: "United Kingdom" },
  ...extra,
});

interface Seen {
  paths: string[];
  userAgents: string[];
}

function startIndexes(seen: Seen) {
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      seen.paths.push(`${url.pathname}${url.search}`);
      seen.userAgents.push(req.headers.get("user-agent") ?? "");
      const q = url.searchParams;
      if (url.pathname === "/institutions") {
        const results = q.get("search")?.includes("Oxford")
          ? [
              institution("I1", "Oxford Brookes University", "https://www.brookes.ac.uk/"),
              institution("I40120149", "University of Oxford", "http://www.ox.ac.uk/"),
            ]
          : [];
        return Response.json({
          meta: { count: results.length, page: 1, per_page: 25 },
          results,
          group_by: [],
        });
      }
      if (url.pathname === "/works") {
        return Response.json({
          meta: { count: 99, db_response_time_ms: 12 },
          results: [{ id: "https://openalex.org/W1" }],
        });
      }
      if (url.pathname === "/w/api.php" && q.get("action") === "wbsearchentities") {
        return Response.json({
          searchinfo: { search: q.get("search") },
          search: [
            { id: "Q1", title: "Q1", label: "Oxford", description: "city" },
            { id: "Q34217", title: "Q34217", label: "University of Oxford", description: "university" },
          ],
          success: 1,
        });
      }
      if (url.pathname === "/w/api.php" && q.get("action") === "wbgetentities") {
        const link = (site: string) => ({ site, title: "University of Oxford", badges: [] });
        return Response.json({
          entities: {
            Q1: {
              type: "item",
              id: "Q1",
              sitelinks: { enwiki: link("enwiki") },
              claims: {
                P856: [
                  {
                    mainsnak: {
                      snaktype: "value",
                      property: "P856",
                      datavalue: { value: "https://www.oxford.gov.uk/", type: "string" },
                    },
                  },
                ],
              },
            },
            Q34217: {
              type: "item",
              id: "Q34217",
              sitelinks: Object.fromEntries(
                [
                  "enwiki",
                  "dewiki",
                  "frwiki",
                  "jawiki",
                  "eswiki",
                  "itwiki",
                  "plwiki",
                  "ptwiki",
                  "ruwiki",
                  "commonswiki",
                  "enwikiquote",
                ].map((s) => [s, link(s)]),
              ),
              claims: {
                P31: [
                  {
                    mainsnak: {
                      snaktype: "value",
                      property: "P31",
                      datavalue: { value: { id: "Q3918" }, type: "wikibase-entityid" },
                    },
                  },
                ],
                P856: [
                  {
                    mainsnak: {
                      snaktype: "value",
                      property: "P856",
                      datavalue: { value: "https://www.ox.ac.uk/", type: "string" },
                    },
                  },
                ],
              },
            },
          },
          success: 1,
        });
      }
      const green = url.pathname.match(/^\/api\/v3\/greencheck\/(.+)$/);
      if (green) {
        const host = decodeURIComponent(green[1] ?? "");
        const body =
          host === "ox.ac.uk"
            ? {
                url: host,
                hosted_by: "Example Green Host",
                hosted_by_website: "https://green.example",
                partner: null,
                green: true,
                hosted_by_id: 595,
                modified: "2026-10-01T12:00:00",
                supporting_documents: [
                  { id: 1, title: "Renewable energy certificate", link: "https://green.example/cert.pdf" },
                ],
              }
            : { url: host, green: false, data: false };
        return Response.json(body);
      }
      return new Response("not found", { status: 404 });
    },
  });
}

let seen: Seen;
const held: (() => void)[] = [];
let indexes: ReturnType<typeof Bun.serve>;
let garbage: ReturnType<typeof Bun.serve>;
let downUrl: string;
const oxford = { domain: "ox.ac.uk", name: "University of Oxford", country: "GB" };

beforeAll(() => {
  seen = { paths: [], userAgents: [] };
  indexes = startIndexes(seen);
  garbage = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      if (path.startsWith("/html")) return new Response("<html>Service temporarily overloaded</html>");
      if (path.startsWith("/shape")) return Response.json({ results: "none", meta: { count: -1 }, url: 5 });
      if (path.startsWith("/fail")) return new Response("boom", { status: 503 });
      if (path.startsWith("/slow")) {
        // Held until the suite ends: the client's time-out is what is under test.
        await new Promise<void>((release) => held.push(release));
        return Response.json({});
      }
      return new Response(`[${"1,".repeat(100_000)}1]`);
    },
  });
  const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  downUrl = `http://127.0.0.1:${closed.port}`;
  closed.stop(true);
});

afterAll(() => {
  for (const release of held.splice(0)) release();
  indexes?.stop(true);
  garbage?.stop(true);
});

const base = () => `http://127.0.0.1:${indexes.port}`;
const junk = (path: string) => `http://127.0.0.1:${garbage.port}/${path}`;

describe("OpenAlex", () => {
  test("finds the institution on the university's domain and scores the last five complete years", async () => {
    const part = openAlexPart({ baseUrl: base(), now: () => new Date("2026-11-23T00:00:00Z") });
    const r = await part(oxford, ctx);
    expect(r.unmeasured).toEqual({});
    expect(r.observations).toEqual({
      institutionId: "https://openalex.org/I40120149",
      name: "University of Oxford",
      homepage: "http://www.ox.ac.uk/",
      years: [2021, 2025],
      works: 999,
      meanCitedness2y: 2,
      hIndex: 500,
      top10Works: 99,
    });
    // 999 works: 100 × log10(1000)/log10(25001) = 68.2; citedness 2.0 → 30/60, h-index 500 → 40/40; 99 top works → 50/100
    expect(points(r)).toEqual({
      "openalex.works": [68.2, 100],
      "openalex.mean-citedness": [30, 60],
      "openalex.h-index": [40, 40],
      "openalex.top10-works": [50, 100],
    });
    expect(r.scores).toEqual({
      research_publications_score: 68.2,
      research_citations_score: 70,
      webo_excellence_score: 50,
    });
    const works = seen.paths.find((p) => p.startsWith("/works"));
    const filter = new URLSearchParams(works?.split("?")[1]).get("filter");
    expect(filter).toBe(
      "institutions.id:I40120149,from_publication_date:2021-01-01,to_publication_date:2025-12-31,citation_normalized_percentile.is_in_top_10_percent:true",
    );
    const search = new URLSearchParams(seen.paths.find((p) => p.startsWith("/institutions"))?.split("?")[1]);
    expect(search.get("search")).toBe("University of Oxford");
    expect(search.get("filter")).toBe("country_code:GB");
    expect(seen.userAgents).toContain(ctx.userAgent);
  });

  test("no institution on the domain, or no name to search with → null with the reason", async () => {
    const part = openAlexPart({ baseUrl: base() });
    const none = await part({ domain: "nowhere.example", name: "Unknown College" }, ctx);
    expect(none.scores).toEqual({
      research_publications_score: null,
      research_citations_score: null,
      webo_excellence_score: null,
    });
    expect(none.unmeasured.research_publications_score).toContain("no institution");
    const nameless = await part({ domain: "ox.ac.uk" }, ctx);
    expect(nameless.unmeasured.research_citations_score).toBe("no university name to search OpenAlex with");
  });

  test("a failed top-10 % query leaves only excellence null", () => {
    const o: OpenAlexObservations = {
      institutionId: "I1",
      name: "U",
      homepage: "https://u.example/",
      years: [2021, 2025],
      works: 25_000,
      meanCitedness2y: 5,
      hIndex: null,
      top10Works: null,
    };
    const r = scoreOpenAlex(o);
    expect(r.scores).toEqual({
      research_publications_score: 100,
      research_citations_score: 60,
      webo_excellence_score: null,
    });
    expect(r.unmeasured.webo_excellence_score).toContain("top-10 %");
  });
});

describe("Wikidata", () => {
  test("the item whose official website is on the domain; its Wikipedia editions only", async () => {
    const r = await wikidataPart({ baseUrl: base() })(oxford, ctx);
    expect(r.observations).toEqual({
      item: "Q34217",
      website: "https://www.ox.ac.uk/",
      wikipedias: ["dewiki", "enwiki", "eswiki", "frwiki", "itwiki", "jawiki", "plwiki", "ptwiki", "ruwiki"],
    });
    // 9 languages: 60 × log10(10)/log10(51) = 35.1; with the article's 40 → 75.1
    expect(points(r)).toEqual({ "wikipedia.article": [40, 40], "wikipedia.languages": [35.1, 60] });
    expect(r.scores).toEqual({ presence_wikipedia_score: 75.1 });
  });
  test("rubric: one language 50.6, fifty → 100, none → 0", () => {
    const w = (n: number) => ({
      item: "Q1",
      website: "https://u.example",
      wikipedias: Array.from({ length: n }, (_, i) => `x${i}wiki`),
    });
    expect(scoreWikidata(w(1)).scores).toEqual({ presence_wikipedia_score: 50.6 });
    expect(scoreWikidata(w(50)).scores).toEqual({ presence_wikipedia_score: 100 });
    expect(scoreWikidata(w(0)).scores).toEqual({ presence_wikipedia_score: 0 });
  });
  test("no item on the domain → null with the reason", async () => {
    const r = await wikidataPart({ baseUrl: base() })(
      { domain: "other.example", name: "University of Oxford" },
      ctx,
    );
    expect(r.scores).toEqual({ presence_wikipedia_score: null });
    expect(r.unmeasured.presence_wikipedia_score).toContain("other.example");
  });
});

describe("Green Web Foundation", () => {
  test("green with published evidence → 100; the host is asked without www.", async () => {
    const r = await greenWebPart({ baseUrl: base() })({ domain: "www.ox.ac.uk" }, ctx);
    expect(points(r)).toEqual({ "green.verified": [80, 80], "green.evidence": [20, 20] });
    expect(r.scores).toEqual({ green_hosting_score: 100 });
    expect(seen.paths).toContain("/api/v3/greencheck/ox.ac.uk");
  });
  test("not green → 0 with both remediations; green without documents → 80", async () => {
    const r = await greenWebPart({ baseUrl: base() })({ domain: "grey.example" }, ctx);
    expect(r.scores).toEqual({ green_hosting_score: 0 });
    expect(r.checks.every((c) => c.remediation !== null)).toBe(true);
    const g: GreenCheck = { url: "u.example", green: true, hosted_by: "H", supporting_documents: [] };
    expect(scoreGreenCheck(g).scores).toEqual({ green_hosting_score: 80 });
  });
});

describe("sources that fail", () => {
  const all = (baseUrl: string, extra: { timeoutMs?: number; maxBytes?: number } = {}) => [
    openAlexPart({ baseUrl, ...extra }),
    wikidataPart({ baseUrl, ...extra }),
    greenWebPart({ baseUrl, ...extra }),
  ];
  const reasons = async (baseUrl: string, extra: { timeoutMs?: number; maxBytes?: number } = {}) => {
    const parts = await Promise.all(all(baseUrl, extra).map((p) => p(oxford, ctx)));
    for (const p of parts) for (const v of Object.values(p.scores)) expect(v).toBeNull();
    return parts.map((p) => Object.values(p.unmeasured)[0]);
  };

  test("a server that is down", async () => {
    const r = await reasons(downUrl);
    expect(r[0]).toStartWith("OpenAlex is unreachable");
    expect(r[1]).toStartWith("Wikidata is unreachable");
    expect(r[2]).toStartWith("The Green Web Foundation is unreachable");
  });
  test("a server that answers garbage (HTML)", async () => {
    const r = await reasons(junk("html"));
    expect(r).toEqual([
      "OpenAlex answered something that is not JSON",
      "Wikidata answered something that is not JSON",
      "The Green Web Foundation answered something that is not JSON",
    ]);
  });
  test("a server that answers JSON of another shape", async () => {
    const r = await reasons(junk("shape"));
    for (const reason of r) expect(reason).toContain("answered JSON of an unexpected shape");
  });
  test("HTTP errors, timeouts and oversized answers", async () => {
    expect(await reasons(junk("fail"))).toEqual([
      "OpenAlex answered HTTP 503",
      "Wikidata answered HTTP 503",
      "The Green Web Foundation answered HTTP 503",
    ]);
    const slow = await reasons(junk("slow"), { timeoutMs: 200 });
    expect(slow[0]).toBe("OpenAlex did not answer within 200 ms");
    const big = await reasons(junk("big"), { maxBytes: 10_000 });
    expect(big[2]).toBe("The Green Web Foundation answered more than 10000 bytes");
  });
  test("an aborted scan", async () => {
    const controller = new AbortController();
    controller.abort();
    const r = await greenWebPart({ baseUrl: base() })(oxford, { ...ctx, signal: controller.signal });
    expect(r.unmeasured.green_hosting_score).toBe("the scan was aborted");
  });
});

describe("--sources", () => {
  test("parses names, refuses unknown ones", () => {
    expect(parseSources("openalex, GreenWeb,openalex")).toEqual(["openalex", "greenweb"]);
    expect(parseSources("")).toEqual([]);
    expect(parseSources(undefined)).toEqual([]);
    expect(parseSources("none")).toEqual([]);
    expect(() => parseSources("openalex,scopus")).toThrow("unknown source scopus");
  });
  test("sources off by default: every source's scores null with the reason, nothing asked", async () => {
    const before = seen.paths.length;
    const parts = sourceParts([]);
    expect(parts.length).toBe(SOURCE_NAMES.length);
    const results = await Promise.all(parts.map((p) => p(oxford, ctx)));
    expect(Object.assign({}, ...results.map((r) => r.unmeasured))).toEqual({
      research_publications_score: "the openalex source is off (--sources)",
      research_citations_score: "the openalex source is off (--sources)",
      webo_excellence_score: "the openalex source is off (--sources)",
      presence_wikipedia_score: "the wikidata source is off (--sources)",
      green_hosting_score: "the greenweb source is off (--sources)",
    });
    expect(seen.paths.length).toBe(before);
  });
  test("an enabled source uses its own base URL", async () => {
    const parts = sourceParts(["greenweb"], { greenweb: { baseUrl: `${base()}/` } });
    const green = await parts[2]!(oxford, ctx);
    expect(green.scores).toEqual({ green_hosting_score: 100 });
  });
});

describe("settings", () => {
  test("flags win over the environment; sources are off unless named", () => {
    expect(sourceSettings({}, {}).enabled).toEqual([]);
    const s = sourceSettings(
      { sources: "wikidata", greenwebUrl: "http://127.0.0.1:9/" },
      {
        UNIRANK_SOURCES: "openalex",
        UNIRANK_OPENALEX_URL: "http://mirror.example",
        UNIRANK_GREENWEB_URL: "http://x",
      },
    );
    expect(s.enabled).toEqual(["wikidata"]);
    expect(s.options.openalex.baseUrl).toBe("http://mirror.example");
    expect(s.options.greenweb.baseUrl).toBe("http://127.0.0.1:9/");
    expect(s.options.wikidata.baseUrl).toBeUndefined();
    expect(() => sourceSettings({}, { UNIRANK_SOURCES: "scholar" })).toThrow("unknown source scholar");
    expect(chromiumPath(undefined, { CHROMIUM_PATH: "/usr/bin/chromium" })).toBe("/usr/bin/chromium");
    expect(chromiumPath("/opt/chrome", { CHROMIUM_PATH: "/usr/bin/chromium" })).toBe("/opt/chrome");
    expect(chromiumPath(undefined, {})).toBeNull();
  });
});

describe("matching a homepage to a domain", () => {
  test("same host, www. and subdomains match; look-alikes do not", () => {
    expect(siteHost("https://WWW.Ox.ac.uk:443/about")).toBe("ox.ac.uk");
    expect(sameSite("https://www.ox.ac.uk/", "ox.ac.uk")).toBe(true);
    expect(sameSite("http://web.mit.edu", "mit.edu")).toBe(true);
    expect(sameSite("https://notox.ac.uk", "ox.ac.uk")).toBe(false);
    expect(sameSite("https://ox.ac.uk.evil.example", "ox.ac.uk")).toBe(false);
    expect(sameSite("not a url at all", "ox.ac.uk")).toBe(false);
  });
});
