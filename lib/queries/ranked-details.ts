import type { TObject } from "@sinclair/typebox";
import { prepared } from "../db/prepared.ts";
import type { DB } from "../schema/database.ts";
import { isoDate } from "../time/format.ts";
import {
  type LatestScanRef,
  LatestScanRefSchema,
  type RankingComposites,
  RankingCompositesSchema,
  type UniversityRef,
  UniversityRefSchema,
} from "./response-schemas.ts";

/**
 * What a ranking or leaderboard row shows of a ranked university, each part with its schema's field order, and
 * what the university's own answer (`/universities/{id}`) adds to its reference.
 */
export interface RankedDetails {
  university: UniversityRef;
  composites: RankingComposites;
  scan: LatestScanRef;
  record: { scan_count: number };
}

const DETAIL_COLUMNS = [
  "u.id",
  "u.domain",
  "u.name",
  "u.country",
  "l.scan_count",
  "l.overall_score",
  "l.webo_composite_score",
  "l.tech_composite_score",
  "l.research_composite_score",
  "l.presence_composite_score",
  "l.scan_id",
  "l.completed_at",
] as const;

const num = (v: unknown): number | null => (v == null ? null : Number(v));

/** An object with exactly the schema's properties, in the schema's order, taken from `values`. */
function inSchemaOrder<T>(schema: TObject, values: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) out[key] = values[key];
  return out as T;
}

type DetailRow = {
  id: number | string;
  domain: string;
  name: string;
  country: string;
  scan_count: number | string;
  overall_score: unknown;
  webo_composite_score: unknown;
  tech_composite_score: unknown;
  research_composite_score: unknown;
  presence_composite_score: unknown;
  scan_id: number | string;
  completed_at: string;
};

function detailsOfRow(r: DetailRow): RankedDetails {
  return {
    university: inSchemaOrder(UniversityRefSchema, { ...r, id: Number(r.id) }),
    composites: inSchemaOrder(RankingCompositesSchema, {
      overall_score: num(r.overall_score),
      webometrics_score: num(r.webo_composite_score),
      technical_score: num(r.tech_composite_score),
      research_score: num(r.research_composite_score),
      presence_score: num(r.presence_composite_score),
    }),
    scan: inSchemaOrder(LatestScanRefSchema, {
      scan_id: Number(r.scan_id),
      scan_date: isoDate(String(r.completed_at)),
    }),
    record: { scan_count: Number(r.scan_count) },
  };
}

const byIds = prepared((db, arg, count) =>
  db
    .selectFrom("latest_scans as l")
    .innerJoin("universities as u", "u.id", "l.university_id")
    .select(DETAIL_COLUMNS)
    .where(
      "l.university_id",
      "in",
      Array.from({ length: count }, (_, i) => arg(i)),
    ),
);

/** The details of the given universities that have a latest completed scan, by university id. */
export async function rankedDetailsOf(db: DB, ids: readonly number[]): Promise<Map<number, RankedDetails>> {
  const out = new Map<number, RankedDetails>();
  if (ids.length === 0) return out;
  for (const row of await byIds(db, ids, ids.length)) out.set(Number(row.id), detailsOfRow(row));
  return out;
}

const after = prepared((db, arg, limit) =>
  db
    .selectFrom("latest_scans as l")
    .innerJoin("universities as u", "u.id", "l.university_id")
    .select(DETAIL_COLUMNS)
    .where("l.university_id", ">", arg(0))
    .orderBy("l.university_id")
    .limit(limit),
);

/** Up to `limit` ranked universities' details with ids above `afterId`, ascending: for reading them all in runs. */
export async function rankedDetailsAfter(
  db: DB,
  afterId: number,
  limit: number,
): Promise<{ id: number; details: RankedDetails }[]> {
  return (await after(db, [afterId], limit)).map((row) => ({
    id: Number(row.id),
    details: detailsOfRow(row),
  }));
}
