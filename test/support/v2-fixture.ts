import {
  CATEGORIES,
  CATEGORY_NAMES,
  type DB,
  type IngestRecord,
  type ScanRecord,
  type ScoreName,
  writeRecords,
} from "../../lib/index.ts";

/**
 * A hand-built dataset for v2 (scans, diffs, leaderboards, regressions) whose every answer is known.
 * "Now" is V2_NOW; the default regression window (30 days) starts exactly at 2026-05-31T12:00:00+00:00.
 */
export const V2_NOW = new Date("2026-06-30T12:00:00Z");

type Scores = Partial<Record<ScoreName, number | null>>;

const uni = (domain: string, name: string, country: string): IngestRecord => ({
  type: "university",
  domain,
  name,
  country,
  created_at: "2025-01-01 00:00:00",
});

const scan = (
  domain: string,
  source_id: string,
  status: ScanRecord["status"],
  completed_at: string | null,
  scores: Scores = {},
): ScanRecord => ({
  type: "scan",
  source_id,
  domain,
  status,
  started_at: completed_at ?? "2026-06-29T00:00:00+00:00",
  completed_at,
  ...scores,
});

/** One's two completed scans: the diff between them is known score by score. */
export const ONE_OLD: Scores = {
  overall_score: 70,
  webo_composite_score: 60,
  tech_composite_score: 75.5,
  tech_ssl_score: 80,
  tech_seo_score: 50,
  tech_hsts_score: 40,
  email_spf_score: 60,
  webo_size_score: 33.3,
  presence_news_score: 20,
  research_orcid_score: null,
};
export const ONE_NEW: Scores = {
  overall_score: 62, // -8
  webo_composite_score: 65, // +5 (ties |-5| of tech_hsts: catalogue order decides)
  tech_composite_score: 75.5, // unchanged
  tech_ssl_score: 100, // +20
  tech_seo_score: 49.9, // -0.1
  tech_hsts_score: 35, // -5
  email_spf_score: 60.04, // +0.04 rounds to 0.0: unchanged
  webo_size_score: 33.4, // +0.1 (33.4 - 33.3 is 0.09999... in floating point)
  presence_news_score: null, // measured only on a: delta null
  research_orcid_score: 55, // measured only on b: delta null
};

/** The 13 category scores of nine's two scans: category i drops by 10 + i. */
const nineScores = (drop: boolean): Scores =>
  Object.fromEntries(CATEGORY_NAMES.map((c, i) => [CATEGORIES[c], drop ? 80 - (10 + i) : 80]));

export const V2_UNIVERSITIES = [
  "one.fr.example",
  "two.de.example",
  "three.it.example",
  "four.es.example",
  "five.nl.example",
  "six.pl.example",
  "seven.pt.example",
  "eight.be.example",
  "nine.at.example",
  "ten.se.example",
] as const;

export function v2Records(): IngestRecord[] {
  return [
    uni("one.fr.example", "Université Un", "FR"),
    uni("two.de.example", "Universität Zwei", "DE"),
    uni("three.it.example", "Università Tre", "IT"),
    uni("four.es.example", "Universidad Cuatro", "ES"),
    uni("five.nl.example", "Universiteit Vijf", "NL"),
    uni("six.pl.example", "Uniwersytet Sześć", "PL"),
    uni("seven.pt.example", "Universidade Sete", "PT"),
    uni("eight.be.example", "Université Huit", "BE"),
    uni("nine.at.example", "Universität Neun", "AT"),
    uni("ten.se.example", "Universitet Tio", "SE"),
    // one: two completed scans 10 days apart from now, plus a pending and a failed one.
    scan("one.fr.example", "one-old", "completed", "2026-01-10T00:00:00+00:00", ONE_OLD),
    scan("one.fr.example", "one-new", "completed", "2026-06-20T00:00:00+00:00", ONE_NEW),
    scan("one.fr.example", "one-pending", "pending", null),
    scan("one.fr.example", "one-failed", "failed", null),
    // two: latest completed exactly 30 days before now; overall drop 64.1 -> 59.1: exactly 5, though 4.999999999999993 in floating point (min_drop boundary).
    scan("two.de.example", "two-old", "completed", "2026-01-01T00:00:00+00:00", {
      overall_score: 64.1,
      tech_ssl_score: 90,
    }),
    scan("two.de.example", "two-new", "completed", "2026-05-31T12:00:00+00:00", {
      overall_score: 59.1,
      tech_ssl_score: 90,
    }),
    // three: latest completed one second before the 30-day window; drop 20.
    scan("three.it.example", "three-old", "completed", "2026-01-01T00:00:00+00:00", { overall_score: 60 }),
    scan("three.it.example", "three-new", "completed", "2026-05-31T11:59:59+00:00", { overall_score: 40 }),
    // four: a single completed scan, recent and low: never a regression.
    scan("four.es.example", "four-only", "completed", "2026-06-25T00:00:00+00:00", { overall_score: 10 }),
    // five: drop 4.9, just under the default min_drop.
    scan("five.nl.example", "five-old", "completed", "2026-03-01T00:00:00+00:00", { overall_score: 50 }),
    scan("five.nl.example", "five-new", "completed", "2026-06-29T00:00:00+00:00", { overall_score: 45.1 }),
    // six: overall not measured before (no drop to report); ssl drops by 30.
    scan("six.pl.example", "six-old", "completed", "2026-03-01T00:00:00+00:00", {
      overall_score: null,
      tech_ssl_score: 95,
    }),
    scan("six.pl.example", "six-new", "completed", "2026-06-28T00:00:00+00:00", {
      overall_score: 30,
      tech_ssl_score: 65,
    }),
    // seven: improves; eight: unchanged. Neither is listed, even with min_drop=0.
    scan("seven.pt.example", "seven-old", "completed", "2026-03-01T00:00:00+00:00", { overall_score: 40 }),
    scan("seven.pt.example", "seven-new", "completed", "2026-06-28T00:00:00+00:00", { overall_score: 60 }),
    scan("eight.be.example", "eight-old", "completed", "2026-03-01T00:00:00+00:00", { overall_score: 55 }),
    scan("eight.be.example", "eight-new", "completed", "2026-06-28T00:00:00+00:00", { overall_score: 55 }),
    // nine: every category score drops by a different amount (category i by 10 + i); a later pending scan
    // and an older completed one do not change which scans are "latest" and "previous".
    scan("nine.at.example", "nine-oldest", "completed", "2025-06-01T00:00:00+00:00", nineScores(true)),
    scan("nine.at.example", "nine-old", "completed", "2026-04-01T00:00:00+00:00", nineScores(false)),
    scan("nine.at.example", "nine-new", "completed", "2026-06-27T00:00:00+00:00", nineScores(true)),
    scan("nine.at.example", "nine-pending", "pending", null),
    // ten: only pending.
    scan("ten.se.example", "ten-pending", "running", null),
  ];
}

export interface V2Ids {
  university: (domain: string) => number;
  scan: (sourceId: string) => number;
}

export async function writeV2Fixture(db: DB): Promise<V2Ids> {
  // Composites stay exactly as given (some are missing on purpose).
  await writeRecords(db, v2Records(), { deriveScores: false });
  const unis = await db.selectFrom("universities").select(["id", "domain"]).execute();
  const scans = await db.selectFrom("scans").select(["id", "source_id"]).execute();
  const u = new Map(unis.map((r) => [r.domain, Number(r.id)]));
  const s = new Map(scans.map((r) => [r.source_id ?? "", Number(r.id)]));
  return {
    university: (d) => {
      const id = u.get(d);
      if (id === undefined) throw new Error(`no university ${d}`);
      return id;
    },
    scan: (sid) => {
      const id = s.get(sid);
      if (id === undefined) throw new Error(`no scan ${sid}`);
      return id;
    },
  };
}
