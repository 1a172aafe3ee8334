import type { ScanRow } from "../../../lib/queries/get-scan.ts";
import { utf8Write } from "./answer-body.ts";
import { AsciiText, INTEGER_ROOM, putInteger } from "./ascii-words.ts";
import { type UniversityTexts, universityRowBytes, writeUniversity } from "./university-texts.ts";

const UNIVERSITY = new AsciiText(',"university":{');
const PROFILE = new AsciiText(',"profile":');
const RUBRIC_VERSION = new AsciiText(',"rubric_version":');

/**
 * What a scan's answer and a scan diff's side both write of a scan: its id and university (`…,"university":{…`),
 * then, after what each puts between, `,"profile":…,"rubric_version":…`.
 */
export class ScanFields {
  readonly id: number;
  readonly profile: string;
  readonly rubricVersion: number | null;
  constructor(
    row: ScanRow,
    readonly slot: number,
  ) {
    this.id = Number(row.id);
    this.profile = JSON.stringify(row.profile);
    this.rubricVersion = row.rubric_version == null ? null : Number(row.rubric_version);
  }
  /** The most bytes the two writes below take. */
  room(texts: UniversityTexts): number {
    return (
      UNIVERSITY.length +
      PROFILE.length +
      RUBRIC_VERSION.length +
      INTEGER_ROOM * 2 +
      this.profile.length * 3 +
      universityRowBytes(texts, this.slot)
    );
  }
  /** The id's digits and `,"university":{…` (the id's key is the caller's); returns where it ends, before the `}`. */
  writeIdAndUniversity(texts: UniversityTexts, out: Buffer, view: DataView, at: number): number {
    at = UNIVERSITY.write(view, putInteger(out, this.id, at));
    return writeUniversity(texts, this.slot, out, at);
  }
  /** `,"profile":…,"rubric_version":…`; returns where it ends. */
  writeProfileAndRubric(out: Buffer, view: DataView, at: number): number {
    at = PROFILE.write(view, at);
    at += utf8Write(out, this.profile, at);
    at = RUBRIC_VERSION.write(view, at);
    return this.rubricVersion === null
      ? at + utf8Write(out, "null", at)
      : putInteger(out, this.rubricVersion, at);
  }
}
