import { beforeAll, expect, test } from "bun:test";
import { sql } from "kysely";
import { type IngestRecord, leaderboard, rankings, writeRecords } from "../../lib/index.ts";
import { describeEachDatabase } from "../support/databases.ts";

/**
 * Rankings and leaderboards read each page's rows from the database (the HTTP layer splices texts serialised once per
 * data generation: test/db/spliced-json.test.ts). Every row, on every page, must show exactly what
 * the database holds.
 */
const COUNT = 1300;
const NAMES = [
  (i: number) => `Universität Nummer ${i}`,
  (i: number) => `北山大学 ${i}`,
  (i: number) => `Institute "Quoted" \\ ${i} 🎓`,
  (i: number) => `Plain College ${i}`,
];

function records(): IngestRecord[] {
  const out: IngestRecord[] = [];
  for (let i = 0; i < COUNT; i++) {
    const domain = `u${i}.rows.example`;
    out.push({ type: "university", domain, name: NAMES[i % NAMES.length]!(i), country: i % 3 ? "DE" : "JP" });
    const score = (i * 37) % 1000;
    out.push({
      type: "scan",
      source_id: `rows-${i}`,
      domain,
      status: "completed",
      completed_at: `2026-0${1 + (i % 9)}-1${i % 10}T08:00:00+00:00`,
      overall_score: score / 10,
      webo_composite_score: i % 7 === 0 ? null : ((score * 3) % 1000) / 10,
      tech_composite_score: 50.5,
      research_composite_score: (i % 100) + 0.25,
      presence_composite_score: 12,
      tech_ssl_score: i % 11 === 0 ? null : (i % 100) + 0.5,
    });
  }
  return out;
}

interface Expected {
  id: number;
  domain: string;
  name: string;
  country: string;
  overall_score: number | null;
  webo_composite_score: number | null;
  tech_composite_score: number | null;
  research_composite_score: number | null;
  presence_composite_score: number | null;
  tech_ssl_score: number | null;
  scan_id: number;
  completed_at: string;
}

describeEachDatabase("core: ranking and leaderboard rows", (get) => {
  const byId = new Map<number, Expected>();
  beforeAll(async () => {
    await writeRecords(get().db, records());
    const { rows } = await sql<Expected>`select u.id, u.domain, u.name, u.country, l.overall_score,
      l.webo_composite_score, l.tech_composite_score, l.research_composite_score, l.presence_composite_score,
      l.tech_ssl_score, l.scan_id, l.completed_at
      from latest_scans l join universities u on u.id = l.university_id`.execute(get().db);
    for (const r of rows) byId.set(Number(r.id), r);
    expect(byId.size).toBe(COUNT);
  });
  const num = (v: unknown) => (v == null ? null : Number(v));

  test("every rankings row, on every page, shows what the database holds", async () => {
    const seen = new Set<number>();
    for (let page = 1; ; page++) {
      const { data } = await rankings(get().db, { limit: 100, page });
      if (data.length === 0) break;
      for (const e of data) {
        const r = byId.get(e.id);
        expect(r).toBeDefined();
        expect(e).toEqual({
          rank: e.rank,
          id: Number(r!.id),
          domain: r!.domain,
          name: r!.name,
          country: r!.country,
          overall_score: num(r!.overall_score),
          webometrics_score: num(r!.webo_composite_score),
          technical_score: num(r!.tech_composite_score),
          research_score: num(r!.research_composite_score),
          presence_score: num(r!.presence_composite_score),
        });
        seen.add(e.id);
      }
    }
    expect(seen.size).toBe(COUNT);
  });

  test("every leaderboard row shows the university, score and latest scan the database holds", async () => {
    const { data, meta } = await leaderboard(get().db, "ssl", { limit: 100 });
    expect(meta.total).toBe([...byId.values()].filter((r) => r.tech_ssl_score !== null).length);
    expect(data).toHaveLength(100);
    for (const e of data) {
      const r = byId.get(e.university.id)!;
      expect(e).toEqual({
        rank: e.rank,
        university: { id: Number(r.id), domain: r.domain, name: r.name, country: r.country },
        score: Number(r.tech_ssl_score),
        scan_id: Number(r.scan_id),
        scan_date: String(r.completed_at).slice(0, 10),
      });
    }
  });
});
