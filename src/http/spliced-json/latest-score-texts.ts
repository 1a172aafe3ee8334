import { generationMemo } from "../../../lib/db/generation-memo.ts";
import { type DB, SCORE_NAMES } from "../../../lib/index.ts";
import {
  latestScoresAfter,
  latestScoresOf,
  type UniversityLatestScores,
} from "../../../lib/queries/university-scores.ts";
import { NULL_CODE, putTenthsCodes } from "../../../lib/scores/tenths.ts";
import { buildBatches } from "./build-batches.ts";
import type { JsonWriter } from "./json-text.ts";
import { MembersWithin, TenthsMembers, tenthsJson } from "./tenths.ts";
import {
  changedSlots,
  mergedColumn,
  mergedNumbers,
  patchableChunks,
  room,
  type TextColumn,
  TextColumnBuilder,
  textAt,
} from "./text-column.ts";

/**
 * Every university with every score of its latest completed scan (the core's `universityScores`), kept per data
 * generation as tenths in 16 bits each (after a write of scans, only the universities it changed are read again),
 * so that the answers are spliced from a table of texts instead of read from the database per request.
 */
export interface LatestScoreTexts {
  /** University ids, ascending; a university's slot is its index here. */
  ids: Int32Array;
  /** The latest completed scan's id; 0 when there is none. */
  scanId: Int32Array;
  /** The scan's `completed_at` as a JSON string, quotes included. */
  completedAt: TextColumn;
  /** `SCORE_NAMES.length` codes a slot, in catalogue order: tenths 0–1000, or `NULL_CODE`. */
  tenths: Uint16Array;
  /** The latest scan's profile, as a code of `PROFILE_NAMES`. */
  profile: Uint8Array;
  /** 1 where every score is null or a tenth in 0–100, so that the codes say it exactly; else 0 (read by the core). */
  exact: Uint8Array;
}

const STRIDE = SCORE_NAMES.length;
const OVERALL = SCORE_NAMES.indexOf("overall_score");
/** `"<name>":<value>` of each score, in catalogue order. */
const SCORE_MEMBERS = new TenthsMembers(SCORE_NAMES);

/** Profile names by code, the same for every table (patches merge codes); code 255: none, or one too many. */
const PROFILE_NAMES: string[] = [];
const PROFILE_CODES = new Map<string, number>();
const NO_PROFILE = 255;

function profileCode(name: string | null): number {
  if (name === null) return NO_PROFILE;
  let code = PROFILE_CODES.get(name);
  if (code === undefined) {
    if (PROFILE_NAMES.length >= NO_PROFILE) return NO_PROFILE;
    code = PROFILE_NAMES.length;
    PROFILE_NAMES.push(name);
    PROFILE_CODES.set(name, code);
  }
  return code;
}

class ScoreTableBuilder {
  #ids = new Int32Array(1024);
  #scanId = new Int32Array(1024);
  #tenths = new Uint16Array(1024 * STRIDE);
  #exact = new Uint8Array(1024);
  #profile = new Uint8Array(1024);
  readonly #completedAt = new TextColumnBuilder();
  set(slot: number, { id, scan, scores }: UniversityLatestScores): void {
    this.#ids = room(this.#ids, slot + 1);
    this.#scanId = room(this.#scanId, slot + 1);
    this.#exact = room(this.#exact, slot + 1);
    this.#profile = room(this.#profile, slot + 1);
    this.#tenths = room(this.#tenths, (slot + 1) * STRIDE);
    this.#ids[slot] = id;
    this.#scanId[slot] = scan?.id ?? 0;
    this.#profile[slot] = profileCode(scan?.profile ?? null);
    this.#completedAt.set(slot, scan === null ? "" : JSON.stringify(scan.completed_at));
    // A scan whose scores row is missing: the core answers it.
    const missing = scan !== null && scores === null;
    const values = scores as unknown as Record<string, unknown> | null;
    const exact = putTenthsCodes(values, SCORE_NAMES, this.#tenths, slot * STRIDE);
    this.#exact[slot] = exact && !missing ? 1 : 0;
  }
  build(count: number): LatestScoreTexts {
    return {
      ids: this.#ids.slice(0, count),
      scanId: this.#scanId.slice(0, count),
      completedAt: this.#completedAt.build(count),
      tenths: this.#tenths.slice(0, count * STRIDE),
      exact: this.#exact.slice(0, count),
      profile: this.#profile.slice(0, count),
    };
  }
}

/** Universities read per statement. */
const RUN = 512;

async function buildScoreTexts(db: DB): Promise<LatestScoreTexts> {
  const table = new ScoreTableBuilder();
  let count = 0;
  for await (const run of buildBatches(RUN, (after) => latestScoresAfter(db, after, RUN))) {
    for (const entry of run) table.set(count++, entry);
  }
  return table.build(count);
}

/** The table of an earlier generation with the `changed` universities read again. */
async function patchScoreTexts(
  db: DB,
  _key: string,
  table: LatestScoreTexts,
  changed: ReadonlySet<number>,
): Promise<LatestScoreTexts | null> {
  if (table.completedAt.chunks.length + 2 > patchableChunks(table.ids.length)) return null;
  const { fresh, runs, n } = await changedSlots(
    table.ids,
    changed,
    (ids) => latestScoresOf(db, ids),
    (entries) => {
      const builder = new ScoreTableBuilder();
      for (const [i, entry] of entries.entries()) builder.set(i, entry);
      return builder.build(entries.length);
    },
  );
  return {
    ids: mergedNumbers(table.ids, fresh.ids, runs, n),
    scanId: mergedNumbers(table.scanId, fresh.scanId, runs, n),
    completedAt: mergedColumn(table.completedAt, fresh.completedAt, runs, n),
    tenths: mergedNumbers(table.tenths, fresh.tenths, runs, n, STRIDE),
    exact: mergedNumbers(table.exact, fresh.exact, runs, n),
    profile: mergedNumbers(table.profile, fresh.profile, runs, n),
  };
}

const scoreTextsMemo = generationMemo((db) => buildScoreTexts(db), { patch: patchScoreTexts });

/** Every university with its latest scores, built at most once per data generation. */
export const latestScoreTextsOf = (db: DB): Promise<LatestScoreTexts> => scoreTextsMemo(db, "");

/** The JSON of a slot's `universityScores`, or null when it has no latest scan or its codes cannot say it. */
export function latestScoresJson(table: LatestScoreTexts, slot: number): string | null {
  if (table.scanId[slot] === 0) return null;
  const scores = scoreMembers(table, slot);
  if (scores === null) return null;
  return `{"scan_id":${table.scanId[slot]},"completed_at":${textAt(table.completedAt, slot)},${scores}}`;
}

/** `latestScoresJson` as a value that writes itself, or null as it. */
export function latestScoresWriter(table: LatestScoreTexts, slot: number): JsonWriter | null {
  if (table.scanId[slot] === 0 || table.exact[slot] !== 1) return null;
  const head = `{"scan_id":${table.scanId[slot]},"completed_at":${textAt(table.completedAt, slot)},`;
  return scoresWithin(table.tenths, slot * STRIDE, head, "}");
}

/** `head`, every score as a member from its code (`codes[from]` on, catalogue order), `tail`: a writer. */
const scoresWithin = (
  codes: ArrayLike<number>,
  from: number,
  head: string | JsonWriter,
  tail: string,
): JsonWriter => new MembersWithin(SCORE_MEMBERS, codes, from, head, tail);

/** Every score as a member from its code (`codes[from]` on, catalogue order), written at `at` of `out`; where they end. */
export const putScoreMembers = (
  codes: ArrayLike<number>,
  from: number,
  out: Uint8Array,
  at: number,
): number => SCORE_MEMBERS.write(codes, from, out, at);

/** A slot's scores as values by name, in catalogue order (null where unmeasured), from codes that say them exactly. */
export function latestScoresValues(table: LatestScoreTexts, slot: number): Record<string, number | null> {
  const values: Record<string, number | null> = {};
  for (let i = 0; i < STRIDE; i++) {
    const code = table.tenths[slot * STRIDE + i] as number;
    values[SCORE_NAMES[i] as string] = code === NULL_CODE ? null : code / 10;
  }
  return values;
}

/** `"overall_score":…,…`: a slot's scores as the members of a JSON object, or null as `latestScoresJson`. */
export function scoreMembers(table: LatestScoreTexts, slot: number): string | null {
  if (table.exact[slot] !== 1) return null;
  return SCORE_MEMBERS.text(table.tenths, slot * STRIDE);
}

/** The most bytes `writeScoreMembers` writes. */
export const SCORE_MEMBERS_ROOM = SCORE_MEMBERS.room;

/** `scoreMembers` of a slot whose codes say its scores exactly, written as bytes at `at` of `out`; where they end. */
export const writeScoreMembers = (
  table: LatestScoreTexts,
  slot: number,
  out: Uint8Array,
  at: number,
): number => SCORE_MEMBERS.write(table.tenths, slot * STRIDE, out, at);

/**
 * What v2 `/universities/{id}` needs of a slot's latest scan: `latest_scan` as JSON, the overall score and the
 * profile; null when it has none, or the table cannot say it exactly.
 */
export function latestScanOf(
  table: LatestScoreTexts,
  slot: number,
): { json: string; overallScore: number | null; profile: string } | null {
  const code = table.profile[slot] as number;
  if (table.scanId[slot] === 0 || table.exact[slot] !== 1 || code === NO_PROFILE) return null;
  const overall = table.tenths[slot * STRIDE + OVERALL] as number;
  return {
    json: `{"id":${table.scanId[slot]},"completed_at":${textAt(table.completedAt, slot)},"overall_score":${tenthsJson(overall)}}`,
    overallScore: overall === NULL_CODE ? null : overall / 10,
    profile: PROFILE_NAMES[code] as string,
  };
}
