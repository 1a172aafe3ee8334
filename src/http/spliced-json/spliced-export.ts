import {
  afterCheckRecommendations,
  type Clock,
  type DB,
  exportCheckRecommendations,
  exportUniversity,
  isoTimestamp,
  SCORE_NAMES,
  scanEvidence,
} from "../../../lib/index.ts";
import { HISTORY_SCORES } from "../../../lib/queries/scan-history.ts";
import { type BodyPiece, utf8Write, writtenText } from "./answer-body.ts";
import { builtHistoryTableOf, type HistoryTable } from "./history-table.ts";
import { JsonWriter } from "./json-text.ts";
import {
  type LatestScoreTexts,
  latestScoresValues,
  latestScoresWriter,
  latestScoreTextsOf,
} from "./latest-score-texts.ts";
import { ScoreRecommendations } from "./score-recommendations.ts";
import { HistoryEntryWriter } from "./spliced-history.ts";
import { TenthsMembers } from "./tenths.ts";
import { slotOf } from "./text-column.ts";
import {
  type UniversityTexts,
  universityRowBytes,
  universityTextsOf,
  writeUniversityRow,
} from "./university-texts.ts";

/** An entry of `scan_history`: its scan id, time and overall score. */
const ENTRY = new HistoryEntryWriter(
  "scan_id",
  new TenthsMembers(["overall_score"]),
  HISTORY_SCORES.indexOf("overall_score"),
);

/**
 * `{"exported_at":…,"university":…,"latest_scores":…,"recommendations":…,"scan_history":[…]}`: the university's row
 * of the list as its bytes, its latest scores written from their codes, its history newest first from the table of
 * every history (`{"scan_id":…,"completed_at":…,"overall_score":…}` an entry).
 */
class ExportJson extends JsonWriter {
  #text: string | undefined;
  constructor(
    private readonly head: string,
    private readonly texts: UniversityTexts,
    private readonly textSlot: number,
    private readonly scores: JsonWriter,
    private readonly recommendations: BodyPiece,
    private readonly history: HistoryTable,
    private readonly first: number,
    private readonly end: number,
  ) {
    super();
  }
  get room(): number {
    return (
      this.head.length * 3 +
      (typeof this.recommendations === "string"
        ? this.recommendations.length * 3
        : this.recommendations.room) +
      universityRowBytes(this.texts, this.textSlot) +
      this.scores.room +
      64 +
      (this.end - this.first) * (ENTRY.room + 1)
    );
  }
  get text(): string {
    this.#text ??= writtenText(this);
    return this.#text;
  }
  write(out: Buffer, at: number): number {
    const { history } = this;
    at += utf8Write(out, this.head, at);
    at = writeUniversityRow(this.texts, this.textSlot, out, at);
    at += utf8Write(out, ',"latest_scores":', at);
    at = this.scores.write(out, at);
    at += utf8Write(out, ',"recommendations":', at);
    const { recommendations } = this;
    at =
      typeof recommendations === "string"
        ? at + utf8Write(out, recommendations, at)
        : recommendations.write(out, at);
    at += utf8Write(out, ',"scan_history":[', at);
    for (let entry = this.end - 1; entry >= this.first; entry--) {
      if (entry < this.end - 1) out[at++] = 0x2c; // ,
      at = ENTRY.write(history, entry, out, at);
    }
    out[at++] = 0x5d; // ]
    out[at++] = 0x7d; // }
    return at;
  }
}

/**
 * The HTTP fast path of v1 `/universities/{id}/export`: the core's `exportUniversity`, spliced from what the other
 * answers keep in memory (the list's row, the table of latest scores, every university's history) with the core's
 * recommendations from the latest scores and that scan's evidence (its one read of the database). A university
 * one of them does not hold (unknown, unscanned, a write in between, a score that is not a tenth, the histories not
 * built yet) is answered by the core. The bytes equal `JSON.stringify` of the core's answer at the same time
 * (test/db/spliced-json.test.ts); why it exists is in docs/performance.md.
 */
export async function splicedExport(db: DB, id: number, clock: Clock): Promise<unknown> {
  const history = await builtHistoryTableOf(db);
  const table = await latestScoreTextsOf(db);
  const texts = await universityTextsOf(db);
  const textSlot = slotOf(texts, id);
  const scoreSlot = slotOf(table, id);
  const historySlot = history === null ? -1 : slotOf(history, id);
  const scores = scoreSlot < 0 ? null : latestScoresWriter(table, scoreSlot);
  if (
    history === null ||
    textSlot < 0 ||
    historySlot < 0 ||
    scores === null ||
    history.exact[historySlot] !== 1
  ) {
    return exportUniversity(db, id, { clock });
  }
  const scanId = table.scanId[scoreSlot] as number;
  const first = history.starts[historySlot] as number;
  const end = history.starts[historySlot + 1] as number;
  // The latest scan is the history's newest entry, unless a write came between the two tables' reads.
  if (end <= first || history.scanId[end - 1] !== scanId) return exportUniversity(db, id, { clock });
  return new ExportJson(
    `{"exported_at":"${isoTimestamp(clock())}","university":`,
    texts,
    textSlot,
    scores,
    await recommendationsOf(db, table, scoreSlot, scanId),
    history,
    first,
    end,
  );
}

/**
 * The export's recommendations: written from the scores' codes where they are the weakest sub-scores alone (the
 * scan's evidence has no failing check to recommend, or there is none); else the core's as one text.
 */
async function recommendationsOf(
  db: DB,
  table: LatestScoreTexts,
  slot: number,
  scanId: number,
): Promise<BodyPiece> {
  const evidence = await scanEvidence(db, scanId);
  if (evidence !== null) {
    const values = latestScoresValues(table, slot);
    const fromChecks = exportCheckRecommendations(values, evidence);
    if (fromChecks.length > 0) return JSON.stringify(afterCheckRecommendations(values, fromChecks));
  }
  return new ScoreRecommendations(table.tenths, slot * SCORE_NAMES.length);
}
