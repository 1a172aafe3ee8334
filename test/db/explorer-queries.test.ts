import { beforeAll, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import {
  type DB,
  DistributionSchema,
  type IngestRecord,
  ScanHistorySchema,
  scanHistory,
  scoreDistribution,
  UnirankError,
  walkScanHistory,
  writeRecords,
} from "../../lib/index.ts";
import { type HistoryRow, historiesAfter, historiesOf } from "../../lib/queries/scan-history.ts";
import { binBounds, binOf } from "../../lib/queries/score-distribution.ts";
import type { RankedScoreName } from "../../lib/scores/catalogue.ts";
import { round1 } from "../../lib/scores/derive.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { expectMatches } from "../support/json-schema.ts";
import { type V2Ids, writeV2Fixture } from "../support/v2-fixture.ts";

const bins = (counts: number[]) => counts.map((count, i) => ({ from: i * 10, to: (i + 1) * 10, count }));

describe("binOf", () => {
  test("equal widths, lower bound included, 100 in the last bin", () => {
    expect([0, 9.9, 10, 55, 99.9, 100].map((v) => binOf(v, binBounds(10)))).toEqual([0, 0, 1, 5, 9, 9]);
    expect([0, 49.9, 50, 100].map((v) => binOf(v, binBounds(2)))).toEqual([0, 0, 1, 1]);
    expect(binOf(100, binBounds(1))).toBe(0);
    // Against the bounds as published: 12.9 starts the fifth of 31 bins, [12.9, 16.13).
    expect(binBounds(31).slice(3, 6)).toEqual([9.68, 12.9, 16.13]);
    expect([12.8, 12.9, 12.95].map((v) => binOf(v, binBounds(31)))).toEqual([3, 4, 4]);
  });
});

describeEachDatabase("explorer queries", (get) => {
  let ids: V2Ids;
  beforeAll(async () => {
    await get().reset();
    ids = await writeV2Fixture(get().db);
  });
  const db = () => get().db;

  test("history: completed scans oldest first with overall and composites", async () => {
    const h = await scanHistory(db(), ids.university("one.fr.example"));
    expectMatches(ScanHistorySchema, h.data);
    expect(h.meta).toEqual({ page: 1, limit: 100, total: 2 });
    expect(h.data).toEqual([
      {
        id: ids.scan("one-old"),
        completed_at: "2026-01-10T00:00:00+00:00",
        overall_score: 70,
        webo_composite_score: 60,
        tech_composite_score: 75.5,
        research_composite_score: null,
        presence_composite_score: null,
      },
      {
        id: ids.scan("one-new"),
        completed_at: "2026-06-20T00:00:00+00:00",
        overall_score: 62,
        webo_composite_score: 65,
        tech_composite_score: 75.5,
        research_composite_score: null,
        presence_composite_score: null,
      },
    ]);
  });

  test("history: paging, pending scans left out, a university with no completed scan", async () => {
    const nine = await scanHistory(db(), ids.university("nine.at.example"), { page: 2, limit: 2 });
    expect(nine.meta).toEqual({ page: 2, limit: 2, total: 3 });
    expect(nine.data.map((e) => [e.id, e.overall_score])).toEqual([[ids.scan("nine-new"), 70]]);
    const ten = await scanHistory(db(), ids.university("ten.se.example"));
    expect(ten).toEqual({ data: [], meta: { page: 1, limit: 100, total: 0 } });
  });

  test("history: every page of every limit has the whole total, full, short or past the end", async () => {
    for (const name of ["nine.at.example", "one.fr.example", "ten.se.example"]) {
      const id = ids.university(name);
      const all = (await scanHistory(db(), id)).data;
      for (let limit = 1; limit <= all.length + 1; limit++) {
        for (let page = 1; page <= all.length + 2; page++) {
          const h = await scanHistory(db(), id, { page, limit });
          expect(h.meta).toEqual({ page, limit, total: all.length });
          expect(h.data).toEqual(all.slice((page - 1) * limit, page * limit));
        }
      }
    }
  });

  test("history walked: every step's total is the whole, whether the first step holds them all or not", async () => {
    for (const name of ["nine.at.example", "one.fr.example", "ten.se.example"]) {
      const id = ids.university(name);
      const all = (await scanHistory(db(), id)).data;
      for (let limit = 1; limit <= all.length + 1; limit++) {
        const seen: number[] = [];
        let from: Parameters<typeof walkScanHistory>[2] = null;
        do {
          const step = await walkScanHistory(db(), id, from, limit);
          expect(step.total).toBe(all.length);
          seen.push(...step.data.map((e) => e.id));
          from = step.next;
        } while (from);
        expect(seen).toEqual(all.map((e) => e.id));
      }
    }
    const e = await walkScanHistory(db(), 999_999, null, 2).catch((x) => x);
    expect((e as UnirankError).code).toBe("NOT_FOUND");
  });

  test("every history read in batches of any size: each university whole, in order, as its own history", async () => {
    const universities = (await db().selectFrom("universities").select("id").orderBy("id").execute()).map(
      (u) => Number(u.id),
    );
    const expected: { university: number; id: number }[] = [];
    for (const id of universities) {
      for (const e of (await scanHistory(db(), id)).data) expected.push({ university: id, id: e.id });
    }
    expect(expected.length).toBeGreaterThan(10);
    const one = (r: HistoryRow) => ({ university: Number(r.university_id), id: Number(r.id) });
    expect((await historiesOf(db(), universities)).map(one)).toEqual(expected);
    // Batches smaller than one university's scans (it is then read whole, alone), as large, and larger.
    for (const limit of [1, 2, 3, 5, 8, 1000]) {
      const read: { university: number; id: number }[] = [];
      let statements = 0;
      for (let after: number | null = 0; after !== null; statements++) {
        const batch: { rows: HistoryRow[]; next: number | null } = await historiesAfter(db(), after, limit);
        read.push(...batch.rows.map(one));
        after = batch.next;
      }
      expect(read).toEqual(expected);
      expect(statements).toBeLessThan(universities.length + 2);
    }
  });

  test("history: an unknown university is NOT_FOUND", async () => {
    for (const page of [1, 2]) {
      const e = await scanHistory(db(), 999_999, { page }).catch((x) => x);
      expect(e).toBeInstanceOf(UnirankError);
      expect((e as UnirankError).code).toBe("NOT_FOUND");
    }
  });

  test("distribution of the overall score: bins, mean and median", async () => {
    const d = await scoreDistribution(db());
    expectMatches(DistributionSchema, d.data);
    expect(d.data).toEqual(bins([0, 1, 0, 1, 2, 2, 2, 1, 0, 0]));
    expect(d.meta).toEqual({
      score: "overall_score",
      country: null,
      bins: 10,
      measured: 9,
      not_measured: 0,
      mean: 47.9,
      median: 55,
      profile: "unknown",
      profiles: { unknown: 9 },
    });
  });

  test("distribution of another score, with unmeasured universities, by country, other bin counts", async () => {
    const ssl = await scoreDistribution(db(), { score: "tech_ssl_score", bins: 4 });
    expect(ssl.data).toEqual([
      { from: 0, to: 25, count: 0 },
      { from: 25, to: 50, count: 0 },
      { from: 50, to: 75, count: 2 },
      { from: 75, to: 100, count: 2 },
    ]);
    expect(ssl.meta).toMatchObject({ measured: 4, not_measured: 5, mean: 79.5, median: 77.5 });
    const de = await scoreDistribution(db(), { country: "de", bins: 3 });
    expect(de.data).toEqual([
      { from: 0, to: 33.33, count: 0 },
      { from: 33.33, to: 66.67, count: 1 },
      { from: 66.67, to: 100, count: 0 },
    ]);
    expect(de.meta).toMatchObject({ country: "DE", measured: 1, mean: 59.1, median: 59.1 });
    const none = await scoreDistribution(db(), { country: "US" });
    expect(none.meta).toMatchObject({ measured: 0, not_measured: 0, mean: null, median: null });
    expect(none.data.every((b) => b.count === 0)).toBe(true);
  });
});

describeEachDatabase("distribution against its published bounds", (get) => {
  beforeAll(async () => {
    await get().reset();
    // One university per tenth from 0.0 to 100.0: every score a bound could split.
    const records: IngestRecord[] = [];
    for (let k = 0; k <= 1000; k++) {
      const domain = `t${k}.example`;
      records.push({ type: "university", domain, name: `Tenth ${k}`, country: "NL" });
      records.push({
        type: "scan",
        source_id: `t${k}`,
        domain,
        status: "completed",
        started_at: "2026-03-01T00:00:00+00:00",
        completed_at: "2026-03-01T01:00:00+00:00",
        overall_score: k / 10,
      } as IngestRecord);
    }
    await writeRecords(get().db, records);
  }, 60_000);

  test("for every bins = 1..100, each count is of the scores within that bin's bounds as published", async () => {
    const wrong: string[] = [];
    for (let bins = 1; bins <= 100; bins++) {
      const d = await scoreDistribution(get().db, { bins });
      // What a reader of the answer counts: from <= score < to, the last bin with 100.
      const published = JSON.parse(JSON.stringify(d.data)) as { from: number; to: number; count: number }[];
      published.forEach((bin, i) => {
        const last = i === published.length - 1;
        let expected = 0;
        for (let k = 0; k <= 1000; k++) {
          const v = k / 10;
          if (v >= bin.from && (v < bin.to || (last && v <= bin.to))) expected++;
        }
        if (bin.count !== expected)
          wrong.push(`bins=${bins} [${bin.from}, ${bin.to}) counts ${bin.count}, not ${expected}`);
      });
      if (published[0]?.from !== 0 || published.at(-1)?.to !== 100)
        wrong.push(`bins=${bins} does not span 0..100`);
      if (published.some((b, i) => i > 0 && b.from !== published[i - 1]?.to))
        wrong.push(`bins=${bins} has a gap`);
    }
    expect(wrong).toEqual([]);
  }, 60_000);
});

/** The distribution as it was computed before it came from the rankings: every latest scan's score read and sorted. */
async function distributionFromRows(
  db: DB,
  score: RankedScoreName,
  country: string | null,
  profile: string | null,
  binCount: number,
) {
  let q = db.selectFrom("latest_scans").select(sql<number | null>`${sql.ref(score)}`.as("v"));
  if (country) q = q.where("country", "=", country);
  if (profile !== null) q = q.where("profile", "=", profile);
  const rows = await q.execute();
  const bounds = binBounds(binCount);
  const counts = new Array<number>(binCount).fill(0);
  const values: number[] = [];
  for (const row of rows) {
    if (row.v == null) continue;
    values.push(Number(row.v));
    const bin = binOf(Number(row.v), bounds);
    counts[bin] = (counts[bin] ?? 0) + 1;
  }
  values.sort((a, b) => a - b);
  const n = values.length;
  const mid = n >> 1;
  return {
    data: counts.map((count, i) => ({ from: bounds[i], to: bounds[i + 1], count })),
    measured: n,
    not_measured: rows.length - n,
    mean: n === 0 ? null : round1(values.reduce((a, b) => a + b, 0) / n),
    median:
      n === 0 ? null : round1(n % 2 ? (values[mid] ?? 0) : ((values[mid - 1] ?? 0) + (values[mid] ?? 0)) / 2),
  };
}

describeEachDatabase("distribution from the rankings", (get) => {
  const countries = ["NL", "DE", "JP", "BR"];
  /** Scans of 300 universities, some scores missing, some not tenths; `round` moves the scores. */
  const scans = (round: number, from = 0, to = 300): IngestRecord[] => {
    const records: IngestRecord[] = [];
    for (let u = from; u < to; u++) {
      const domain = `d${u}.example`;
      if (round === 0) {
        records.push({ type: "university", domain, name: `Dist ${u}`, country: countries[u % 4] as string });
      }
      const v = (k: number) => ((u * 37 + k * 11 + round * 13) % 1001) / 10;
      records.push({
        type: "scan",
        source_id: `d${u}-${round}`,
        domain,
        status: "completed",
        started_at: `2026-03-0${round + 1}T00:00:00+00:00`,
        completed_at: `2026-03-0${round + 1}T01:00:00+00:00`,
        overall_score: u % 17 === 0 ? 41.25 : v(1),
        ...(u % 5 === 0 ? {} : { tech_ssl_score: v(2) }),
        i18n_score: u % 3 === 0 ? null : v(3),
      } as IngestRecord);
    }
    return records;
  };
  const compare = async (label: string) => {
    const db = get().db;
    const wrong: string[] = [];
    for (const score of [
      "overall_score",
      "tech_ssl_score",
      "i18n_score",
      "tech_composite_score",
    ] as RankedScoreName[]) {
      for (const country of [undefined, "nl", "JP", "XX"]) {
        for (const binCount of [1, 7, 10, 31]) {
          for (const profile of [undefined, "all"]) {
            const d = await scoreDistribution(db, { score, country, bins: binCount, profile });
            const expected = await distributionFromRows(db, score, d.meta.country, d.meta.profile, binCount);
            const got = {
              data: d.data,
              measured: d.meta.measured,
              not_measured: d.meta.not_measured,
              mean: d.meta.mean,
              median: d.meta.median,
            };
            if (JSON.stringify(got) !== JSON.stringify(expected))
              wrong.push(`${label} ${score} ${country} ${binCount} ${profile}: ${JSON.stringify(got)}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  };

  test("equals the scores read and sorted, for every score, country, bins and profile, and after new scans", async () => {
    await get().reset();
    await writeRecords(get().db, scans(0));
    await compare("first");
    // New scans of a third of the universities: the rankings are patched, the counts read again.
    await writeRecords(get().db, scans(1, 0, 100));
    await compare("after a write");
  }, 60_000);
});
