import { CATEGORY_NAMES, type DB, type IngestRecord, RANKING_SORTS, writeRecords } from "../../lib/index.ts";
import { generateDataset } from "../../lib/seed/generate.ts";
import { createApp } from "../../src/http/app.ts";
import { testContext } from "./fixtures-app.ts";

/** "Now" of the export fixture's answers (regressions look back from it). */
export const EXPORT_NOW = new Date("2026-11-21T00:00:00Z");

/** Names a CSV or JSON writer must carry unchanged: separators, quotes, line breaks, right-to-left text, emoji. */
export const AWKWARD_NAMES = [
  'Université "Libre", de Bruxelles',
  "Line one\nline two",
  "Carriage\r\nreturn, and a comma",
  "جامعة الملك سعود",
  "אוניברסיטת תל אביב",
  "🎓 Emoji University 🦆",
  '"Quoted"',
  "=1+1 formula-looking",
  "Tab\tseparated; semicolon",
] as const;

/** Evidence as `unirank scan` stores it: observations, checks, unmeasured sub-scores. */
const evidence = (n: number) => ({
  observations: null,
  checks: [
    {
      id: "hsts.max-age",
      score: "tech_hsts_score",
      label: "HSTS max-age",
      points: 10 + n,
      max: 40,
      detail: `max-age=${n * 1000}, "includeSubDomains"`,
      remediation: "Set max-age to at least one year,\nthen preload",
    },
    {
      id: "tls.version",
      score: "tech_tls_version_score",
      label: "TLS 1.3",
      points: 50,
      max: 50,
      detail: "TLS 1.3 offered",
      remediation: null,
    },
  ],
  unmeasured: { tech_speed_mobile_score: "no browser" },
});

/** Universities with awkward names, and scans of every status, with and without evidence. */
export function awkwardRecords(): IngestRecord[] {
  const records: IngestRecord[] = [];
  AWKWARD_NAMES.forEach((name, i) => {
    const domain = `awkward-${i}.example`;
    records.push({ type: "university", domain, name, country: i % 2 ? "SA" : "IL" });
    records.push({
      type: "scan",
      source_id: `awkward-${i}-old`,
      domain,
      status: "completed",
      started_at: "2026-09-01T00:00:00+00:00",
      completed_at: "2026-09-01T00:10:00+00:00",
      tech_hsts_score: 20 + i,
      tech_ssl_score: 90 - i,
      webo_size_score: 33.3,
    });
    records.push({
      type: "scan",
      source_id: `awkward-${i}-new`,
      domain,
      status: "completed",
      started_at: "2026-11-10T00:00:00+00:00",
      completed_at: "2026-11-10T00:10:00+00:00",
      tech_hsts_score: 10 + i,
      tech_ssl_score: 95,
      research_orcid_score: i % 3 === 0 ? null : 50,
      evidence: evidence(i),
    });
    if (i % 3 === 0)
      records.push({
        type: "scan",
        source_id: `awkward-${i}-pending`,
        domain,
        status: "pending",
        started_at: null,
      });
    if (i % 3 === 1)
      records.push({
        type: "scan",
        source_id: `awkward-${i}-failed`,
        domain,
        status: "failed",
        started_at: "2026-11-12T00:00:00+00:00",
        completed_at: "2026-11-12T00:01:00+00:00",
        evidence: { observations: null, checks: [], unmeasured: {}, failure_reason: "timed out" },
      });
    if (i % 3 === 2)
      records.push({
        type: "scan",
        source_id: `awkward-${i}-running`,
        domain,
        status: "running",
        started_at: "2026-11-20T00:00:00+00:00",
      });
  });
  return records;
}

/** The generated demo data of `universities` universities, then the awkward ones. */
export async function writeExportFixture(db: DB, universities = 40): Promise<void> {
  await writeRecords(db, [...generateDataset({ universities, seed: 11 }), ...awkwardRecords()]);
}

/**
 * Every v1 and v2 GET a client can make of this data, with its answer: lists (every page), each university, its
 * scores, export and history, each scan (evidence included), diffs, rankings by every sort, every leaderboard,
 * regressions, stats, distribution. Two databases with the same data give the same map.
 */
export async function apiAnswers(db: DB): Promise<Map<string, string>> {
  const app = createApp({ ...testContext(db, { cache: false }), clock: () => EXPORT_NOW });
  const universities = (await db.selectFrom("universities").select("id").orderBy("id").execute()).map((r) =>
    Number(r.id),
  );
  const scans = (await db.selectFrom("scans").select("id").orderBy("id").execute()).map((r) => Number(r.id));
  const paths: string[] = [
    "/api/v1/stats",
    "/api/v2/distribution?bins=7",
    "/api/v2/regressions?days=365&min_drop=0&limit=100",
  ];
  for (const v of ["v1", "v2"]) {
    for (let page = 1; (page - 1) * 50 <= universities.length; page++) {
      paths.push(`/api/${v}/universities?limit=50&page=${page}`);
      for (const sort of Object.keys(RANKING_SORTS))
        paths.push(`/api/${v}/rankings?limit=50&page=${page}&sort=${sort}`);
    }
  }
  paths.push("/api/v1/universities?search=univ&sort=created_at&order=desc&limit=100");
  for (const c of CATEGORY_NAMES) paths.push(`/api/v2/leaderboard/${c}?limit=100`);
  for (const id of universities) {
    paths.push(
      `/api/v1/universities/${id}`,
      `/api/v2/universities/${id}`,
      `/api/v1/universities/${id}/scores`,
    );
    paths.push(`/api/v1/universities/${id}/export`, `/api/v2/universities/${id}/history`);
  }
  for (let i = 0; i + 1 < universities.length; i += 7)
    paths.push(`/api/v1/compare?ids=${universities[i]},${universities[i + 1]}`);
  for (const id of scans) paths.push(`/api/v2/scans/${id}`);
  for (let i = 0; i + 1 < scans.length; i += 11)
    paths.push(`/api/v2/scan-diff?a=${scans[i]}&b=${scans[i + 1]}`);
  const answers = new Map<string, string>();
  for (const path of paths) {
    const r = await app.handle(new Request(`http://unirank.test${path}`));
    answers.set(path, `${r.status} ${await r.text()}`);
  }
  return answers;
}
