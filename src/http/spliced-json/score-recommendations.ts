import {
  messageAround,
  priorityOf,
  SCORE_NAMES,
  SUB_SCORE_NAMES,
  weakestSubScores,
} from "../../../lib/index.ts";
import { NULL_CODE } from "../../../lib/scores/tenths.ts";
import { writtenText } from "./answer-body.ts";
import { AsciiText, putTenthsWord, WORD_SLACK, wordView } from "./ascii-words.ts";
import { JsonWriter } from "./json-text.ts";

/** A text as it stands inside a JSON string. */
const inString = (text: string) => JSON.stringify(text).slice(1, -1);

const PRIORITIES = ["high", "medium", "low"] as const;
/** `{"category":"…","score":` of each sub-score, by its index in `SUB_SCORE_NAMES`. */
const HEADS = SUB_SCORE_NAMES.map((name) => new AsciiText(`{"category":${JSON.stringify(name)},"score":`));
/** `,"priority":"…","message":"<label> is at ` of each priority (as `PRIORITIES`) and sub-score. */
const MIDDLES = PRIORITIES.map((priority) =>
  SUB_SCORE_NAMES.map(
    (name) => new AsciiText(`,"priority":"${priority}","message":"${inString(messageAround(name)[0])}`),
  ),
);
/** `: <advice>"}` of each sub-score. */
const TAILS = SUB_SCORE_NAMES.map((name) => new AsciiText(`${inString(messageAround(name)[1])}"}`));
/** The priority of each code of tenths (0–1000), as an index of `PRIORITIES`. */
const PRIORITY_OF_CODE = Uint8Array.from({ length: 1001 }, (_, k) => PRIORITIES.indexOf(priorityOf(k / 10)));
/** Where each sub-score's code is among a scan's codes (`SCORE_NAMES` order). */
const CODE_AT = Int32Array.from(SUB_SCORE_NAMES, (name) => SCORE_NAMES.indexOf(name));
/** The most bytes a recommendation takes: its pieces, its score twice (four bytes at most), a comma. */
const ITEM_ROOM =
  Math.max(...HEADS.map((h) => h.length)) +
  Math.max(...MIDDLES.flat().map((m) => m.length)) +
  Math.max(...TAILS.map((t) => t.length)) +
  9;

/** The sub-scores while `weakestSubScores` orders them, and its order (synchronous, so shared). */
const SCORES = new Float64Array(SUB_SCORE_NAMES.length);
const ORDER = new Int32Array(SUB_SCORE_NAMES.length);

/**
 * The recommendations of a scan whose evidence has no failing check to recommend (those of `recommend` by score
 * alone), written from its scores' codes of tenths: the core picks and orders them (`weakestSubScores`), each is
 * written from its sub-score's constant pieces and its score's digits. The bytes equal `JSON.stringify` of the
 * core's recommendations (test/db/spliced-json.test.ts, the export).
 */
export class ScoreRecommendations extends JsonWriter {
  /** The chosen sub-scores' indexes in `SUB_SCORE_NAMES` and their codes, in the answer's order. */
  readonly #chosen: Uint8Array;
  readonly #codes: Uint16Array;
  #text: string | undefined;
  /** From `codes[at …]`, a scan's codes in `SCORE_NAMES` order, every one a tenth or `NULL_CODE`. */
  constructor(codes: Uint16Array, at: number) {
    super();
    for (let i = 0; i < SUB_SCORE_NAMES.length; i++) {
      const code = codes[at + (CODE_AT[i] as number)] as number;
      SCORES[i] = code === NULL_CODE ? Number.NaN : code / 10;
    }
    const n = weakestSubScores(SCORES, ORDER);
    this.#chosen = new Uint8Array(n);
    this.#codes = new Uint16Array(n);
    for (let k = 0; k < n; k++) {
      const i = ORDER[k] as number;
      this.#chosen[k] = i;
      this.#codes[k] = codes[at + (CODE_AT[i] as number)] as number;
    }
  }
  get room(): number {
    return 2 + this.#chosen.length * ITEM_ROOM + WORD_SLACK;
  }
  get text(): string {
    this.#text ??= writtenText(this);
    return this.#text;
  }
  write(out: Buffer, at: number): number {
    const view = wordView(out);
    const chosen = this.#chosen;
    out[at++] = 0x5b; // [
    for (let k = 0; k < chosen.length; k++) {
      if (k > 0) out[at++] = 0x2c; // ,
      const i = chosen[k] as number;
      const code = this.#codes[k] as number;
      at = (HEADS[i] as AsciiText).write(view, at);
      at = putTenthsWord(view, code, at);
      at = ((MIDDLES[PRIORITY_OF_CODE[code] as number] as AsciiText[])[i] as AsciiText).write(view, at);
      at = putTenthsWord(view, code, at);
      at = (TAILS[i] as AsciiText).write(view, at);
    }
    out[at++] = 0x5d; // ]
    return at;
  }
}
