import { sql } from "kysely";
import { keysetBatches } from "../db/keyset-batches.ts";
import type { DB, ScanStatus } from "../schema/database.ts";
import { SCORE_NAMES, type ScoreName } from "../scores/catalogue.ts";

/**
 * The rows of an export, read in batches by keyset (`id > last id`, ascending), so an export of any size holds one
 * batch at a time and each statement is a range read of a primary key. Run them inside `inReadSnapshot` for a
 * consistent export.
 */

/** Which universities and scans an export holds; everything when empty. */
export interface ExportSelection {
  /** ISO 3166-1 alpha-2 codes, upper case. */
  countries?: readonly string[];
  /** Domains as stored (lower case, punycode). */
  domains?: readonly string[];
  /**
   * `isoTimestamp` text: only scans that completed at or after it (not completed: started at or after it), and in
   * the per-university table only universities whose latest completed scan did.
   */
  since?: string;
}

export interface UniversityRow {
  id: number;
  domain: string;
  name: string;
  country: string;
  created_at: string;
  search_text: string;
}

export type ScanRow = {
  id: number;
  university_id: number;
  domain: string;
  name: string;
  country: string;
  source_id: string | null;
  status: ScanStatus;
  started_at: string | null;
  completed_at: string | null;
  profile: string;
  rubric_version: number | null;
  /** The evidence as stored (JSON text), when asked for. */
  evidence?: string | null;
} & Record<ScoreName, number | null>;

export type LatestRow = Omit<UniversityRow, "search_text"> & {
  scan_count: number;
  scan_id: number | null;
  completed_at: string | null;
} & Record<ScoreName, number | null>;

export const DEFAULT_BATCH = 1000;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function scoresOf(row: Record<string, unknown>, out: Record<string, unknown>): void {
  for (const name of SCORE_NAMES) out[name] = num(row[name]);
}

/** The selection's university filters as one condition on `universities`. */
function scope(selection: ExportSelection) {
  const parts = [];
  if (selection.countries?.length)
    parts.push(sql`universities.country in (${sql.join(selection.countries)})`);
  if (selection.domains?.length) parts.push(sql`universities.domain in (${sql.join(selection.domains)})`);
  return parts.length === 0 ? sql<boolean>`1 = 1` : sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

/** The selected universities, by id. */
export async function* universityBatches(
  db: DB,
  selection: ExportSelection = {},
  size = DEFAULT_BATCH,
): AsyncGenerator<UniversityRow[]> {
  yield* keysetBatches(size, async (after) =>
    (
      await db
        .selectFrom("universities")
        .select(["id", "domain", "name", "country", "created_at", "search_text"])
        .where("universities.id", ">", after)
        .where(scope(selection))
        .orderBy("universities.id")
        .limit(size)
        .execute()
    ).map((r) => ({ ...r, id: Number(r.id) })),
  );
}

/** The selected scans of any status, by id, with their university's domain, name and country (and evidence). */
export async function* scanBatches(
  db: DB,
  selection: ExportSelection = {},
  options: { evidence?: boolean; size?: number } = {},
): AsyncGenerator<ScanRow[]> {
  const size = options.size ?? DEFAULT_BATCH;
  yield* keysetBatches(size, async (after) => {
    let q = db
      .selectFrom("scans")
      .innerJoin("universities", "universities.id", "scans.university_id")
      .select([
        "scans.id",
        "scans.university_id",
        "universities.domain",
        "universities.name",
        "universities.country",
        "scans.source_id",
        "scans.status",
        "scans.started_at",
        "scans.completed_at",
        "scans.profile",
        "scans.rubric_version",
        ...SCORE_NAMES.map((n) => `scans.${n}` as const),
      ])
      .where("scans.id", ">", after)
      .where(scope(selection));
    if (options.evidence) {
      q = q
        .leftJoin("scan_evidence", "scan_evidence.scan_id", "scans.id")
        .select("scan_evidence.evidence") as unknown as typeof q;
    }
    const since = selection.since;
    if (since !== undefined) {
      q = q.where(
        sql<boolean>`coalesce(scans.completed_at, scans.started_at) >= ${since}`,
      ) as unknown as typeof q;
    }
    const rows = (await q.orderBy("scans.id").limit(size).execute()) as Record<string, unknown>[];
    return rows.map((r) => {
      const out: Record<string, unknown> = {
        id: Number(r.id),
        university_id: Number(r.university_id),
        domain: r.domain,
        name: r.name,
        country: r.country,
        source_id: r.source_id ?? null,
        status: r.status,
        started_at: r.started_at ?? null,
        completed_at: r.completed_at ?? null,
        profile: r.profile,
        rubric_version: r.rubric_version == null ? null : Number(r.rubric_version),
      };
      scoresOf(r, out);
      if (options.evidence) out.evidence = r.evidence ?? null;
      return out as ScanRow;
    });
  });
}

/** The selected universities, by id, each with its latest completed scan's every score (null without one). */
export async function* latestBatches(
  db: DB,
  selection: ExportSelection = {},
  size = DEFAULT_BATCH,
): AsyncGenerator<LatestRow[]> {
  yield* keysetBatches(size, async (after) => {
    let q = db
      .selectFrom("universities")
      .leftJoin("latest_scans", "latest_scans.university_id", "universities.id")
      .leftJoin("scans", "scans.id", "latest_scans.scan_id")
      .select([
        "universities.id",
        "universities.domain",
        "universities.name",
        "universities.country",
        "universities.created_at",
        "latest_scans.scan_count",
        "latest_scans.scan_id",
        "latest_scans.completed_at",
        ...SCORE_NAMES.map((n) => `scans.${n}` as const),
      ])
      .where("universities.id", ">", after)
      .where(scope(selection));
    if (selection.since !== undefined) q = q.where("latest_scans.completed_at", ">=", selection.since);
    const rows = (await q.orderBy("universities.id").limit(size).execute()) as Record<string, unknown>[];
    return rows.map((r) => {
      const out: Record<string, unknown> = {
        id: Number(r.id),
        domain: r.domain,
        name: r.name,
        country: r.country,
        created_at: r.created_at,
        scan_count: Number(r.scan_count ?? 0),
        scan_id: num(r.scan_id),
        completed_at: r.completed_at ?? null,
      };
      scoresOf(r, out);
      return out as LatestRow;
    });
  });
}
