import {
  type DB,
  type IngestRecord,
  type ScanRecord,
  type ScoreName,
  type UniversityRecord,
  writeRecords,
} from "../../lib/index.ts";

/**
 * A hand-built dataset whose every answer is known: competition ranks with ties, country filters, windows,
 * accents, full-width letters, LIKE metacharacters, never-scanned and only-pending universities.
 *
 * Overall ranking (latest completed scans):
 *   1 alpha 90 | 2 montreal 80 | 2 gamma 80 | 2 lambda 80 | 5 delta 70 | 6 epsilon 65 | 7 zeta 60 | 7 iota 60 | 9 kappa 40
 * eta has no scan at all; theta has only a pending and a failed scan.
 */

type Scores = Partial<Record<ScoreName, number | null>>;

const uni = (domain: string, name: string, country: string, created_at: string): UniversityRecord => ({
  type: "university",
  domain,
  name,
  country,
  created_at,
});

const done = (domain: string, source_id: string, completed_at: string, scores: Scores): ScanRecord => ({
  type: "scan",
  source_id,
  domain,
  status: "completed",
  started_at: completed_at,
  completed_at,
  ...scores,
});

/** Composite scores given explicitly, so ranking by any sort is exact. */
const overall = (
  o: number | null,
  webo: number | null,
  tech: number | null,
  research = 50,
  presence = 50,
) => ({
  overall_score: o,
  webo_composite_score: webo,
  tech_composite_score: tech,
  research_composite_score: research,
  presence_composite_score: presence,
});

/** Sub-scores of alpha's latest scan: four weak ones, the rest strong or unmeasured. */
export const ALPHA_LATEST_SUBSCORES: Scores = {
  tech_ssl_score: 45,
  email_spf_score: 45,
  tech_hsts_score: 60,
  green_hosting_score: 69.9,
  tech_speed_desktop_score: 70,
  tech_seo_score: 88.5,
  webo_size_score: 91,
  research_orcid_score: null,
};

/** Sub-scores of lambda's latest scan: all at least 70, so the three lowest are recommended. */
export const LAMBDA_LATEST_SUBSCORES: Scores = {
  tech_ssl_score: 95,
  tech_seo_score: 72,
  email_dmarc_score: 71.5,
  webo_size_score: 80,
  presence_news_score: 99,
};

/** Kappa: twelve weak sub-scores, more than the ten recommendations kept. */
export const KAPPA_LATEST_SUBSCORES: Scores = {
  tech_ssl_score: 30,
  tech_tls_version_score: 31,
  tech_hsts_score: 32,
  tech_security_headers_score: 33,
  tech_speed_desktop_score: 34,
  tech_speed_mobile_score: 35,
  tech_core_web_vitals_score: 36,
  tech_http2_score: 37,
  tech_mobile_friendly_score: 38,
  tech_accessibility_score: 39,
  tech_seo_score: 40,
  tech_sitemap_score: 41,
};

export const FIXTURE: IngestRecord[] = [
  uni("alpha.de.example", "Universität Alpha", "de", "2024-01-01 00:00:00"),
  uni("montreal.ca.example", "Université de Montréal", "CA", "2024-01-01 00:00:00"),
  uni("gamma.us.example", "Gamma 100% Institute", "US", "2023-05-05 10:00:00"),
  uni("delta.us.example", "Delta_Tech University", "US", "2023-05-05 10:00:00"),
  uni("epsilon.de.example", "ＥＰＳＩＬＯＮ University", "DE", "2022-02-02 02:02:02"),
  uni("zeta.jp.example", "北山大学", "JP", "2025-03-03 03:03:03"),
  uni("eta.de.example", "Eta College", "DE", "2024-01-01 00:00:00"),
  uni("theta.us.example", "Theta University", "US", "2021-07-07 07:07:07"),
  uni("iota.gb.example", "Iota University", "GB", "2025-03-03 03:03:03"),
  uni("kappa.gb.example", "Kappa University", "gb", "2020-12-31 23:59:59"),
  uni("lambda.us.example", "Lambda University", "US", "2023-05-05 10:00:00"),

  // alpha: an older completed scan, the latest, a later pending and a failed one (never counted).
  done("alpha.de.example", "a-1", "2025-01-10T12:00:00+00:00", {
    ...overall(50, 50, 50),
    tech_ssl_score: 10,
  }),
  done("alpha.de.example", "a-2", "2026-01-10T12:00:00+00:00", {
    ...overall(90, 95, 88, 90, 85),
    ...ALPHA_LATEST_SUBSCORES,
  }),
  { type: "scan", source_id: "a-3", domain: "alpha.de.example", status: "pending", started_at: null },
  {
    type: "scan",
    source_id: "a-4",
    domain: "alpha.de.example",
    status: "failed",
    started_at: "2026-02-01T00:00:00+00:00",
  },
  done("montreal.ca.example", "m-1", "2025-06-01T08:30:00+00:00", overall(80, 70, 85)),
  done("gamma.us.example", "g-1", "2025-06-01T08:30:00+00:00", overall(80, 60, 90)),
  done("delta.us.example", "d-1", "2024-06-01T08:30:00+00:00", overall(75, 65, 65)),
  done("delta.us.example", "d-2", "2025-06-01T08:30:00+00:00", overall(70, 99, 40)),
  done("epsilon.de.example", "e-1", "2025-09-09T09:09:09+00:00", overall(65, 20, 70)),
  done("zeta.jp.example", "z-1", "2025-10-10T10:10:10+00:00", overall(60, 30, 30)),
  done("iota.gb.example", "i-1", "2025-11-11T11:11:11+00:00", overall(60, null, 20)),
  { type: "scan", source_id: "t-1", domain: "theta.us.example", status: "pending", started_at: null },
  {
    type: "scan",
    source_id: "t-2",
    domain: "theta.us.example",
    status: "failed",
    started_at: "2026-01-01T00:00:00+00:00",
  },
  // kappa: two scans with the same completion time; the greater id is the latest.
  done("kappa.gb.example", "k-1", "2026-02-02T02:02:02+00:00", { ...overall(41, 41, 41), tech_ssl_score: 1 }),
  done("kappa.gb.example", "k-2", "2026-02-02T02:02:02+00:00", {
    ...overall(40, 45, 10),
    ...KAPPA_LATEST_SUBSCORES,
  }),
  done("lambda.us.example", "l-1", "2026-03-03T03:03:03+00:00", {
    ...overall(80, 55, 55),
    ...LAMBDA_LATEST_SUBSCORES,
  }),
];

/** Domain → expected overall rank, score (latest completed scans). */
export const OVERALL_RANKING: [string, number, number][] = [
  ["alpha.de.example", 1, 90],
  ["montreal.ca.example", 2, 80],
  ["gamma.us.example", 2, 80],
  ["lambda.us.example", 2, 80],
  ["delta.us.example", 5, 70],
  ["epsilon.de.example", 6, 65],
  ["zeta.jp.example", 7, 60],
  ["iota.gb.example", 7, 60],
  ["kappa.gb.example", 9, 40],
];

/** Writes the fixture and returns domain → id. */
export async function writeFixture(db: DB): Promise<Map<string, number>> {
  await writeRecords(db, FIXTURE);
  const rows = await db.selectFrom("universities").select(["id", "domain"]).execute();
  return new Map(rows.map((r) => [r.domain, Number(r.id)]));
}

export const FIXTURE_UNIVERSITIES = FIXTURE.filter((r): r is UniversityRecord => r.type === "university");
export const FIXTURE_COMPLETED_SCANS = FIXTURE.filter((r) => r.type === "scan" && r.status === "completed");
