import type { DB } from "../../../lib/index.ts";
import { HISTORY_SCORES, type ScanHistoryInput, scanHistory } from "../../../lib/queries/scan-history.ts";
import { AsciiText, putInteger, WORD_SLACK, wordView } from "./ascii-words.ts";
import { builtHistoryTableOf, HISTORY_STRIDE, type HistoryTable } from "./history-table.ts";
import { writeIsoSeconds } from "./iso-seconds.ts";
import { JsonArray } from "./json-text.ts";
import { TenthsMembers } from "./tenths.ts";
import { slotOf } from "./text-column.ts";
import { universityTextsOf } from "./university-texts.ts";

const COMPLETED_AT = new AsciiText(',"completed_at":"');

/**
 * An entry of the table of every history as `{"<id key>":…,"completed_at":"…",<members>}`: its scan id, its time
 * from its seconds, the members of its codes from `from` on (`members`), digits from codes. The history's page and
 * an export's `scan_history` each write their entries with one.
 */
export class HistoryEntryWriter {
  readonly #open: AsciiText;
  /** The most bytes an entry takes: its constants, a 32-bit id (11 characters with a sign), a time, the members and the words' slack. */
  readonly room: number;
  constructor(
    idKey: string,
    private readonly members: TenthsMembers,
    private readonly from: number,
  ) {
    this.#open = new AsciiText(`{${JSON.stringify(idKey)}:`);
    this.room = this.#open.length + 11 + COMPLETED_AT.length + 25 + 2 + members.room + 1 + WORD_SLACK;
  }
  /** Writes entry `entry` of `table` at `at` of `out` (which has `room` bytes there); returns where it ends. */
  write(table: HistoryTable, entry: number, out: Buffer, at: number): number {
    const view = wordView(out);
    at = this.#open.write(view, at);
    at = putInteger(out, table.scanId[entry] as number, at);
    at = COMPLETED_AT.write(view, at);
    at = writeIsoSeconds(table.seconds[entry] as number, out, at);
    out[at++] = 0x22; // "
    out[at++] = 0x2c; // ,
    at = this.members.write(table.tenths, entry * HISTORY_STRIDE + this.from, out, at);
    out[at++] = 0x7d; // }
    return at;
  }
}

/** A history page's entry: `historyEntry` of the core. */
const ENTRY = new HistoryEntryWriter("id", new TenthsMembers(HISTORY_SCORES), 0);
/** Where entries are written to be read out as text (a cached answer, CSV). */
const scratch = Buffer.alloc(ENTRY.room);

/** A page of a history written from the table: entry `k` as `historyEntry` serialises it, digits from codes. */
class HistoryJson extends JsonArray<number> {
  constructor(
    private readonly table: HistoryTable,
    entries: readonly number[],
  ) {
    super(entries);
  }
  protected itemRoom(): number {
    return ENTRY.room;
  }
  protected itemText(entry: number): string {
    return scratch.toString("latin1", 0, this.writeItem(entry, scratch, 0));
  }
  protected writeItem(entry: number, out: Buffer, at: number): number {
    return ENTRY.write(this.table, entry, out, at);
  }
}

/**
 * The HTTP fast path of v2 `/universities/{id}/history` (by page): the core's `scanHistory`, its page cut from
 * every university's history kept in memory (`history-table.ts`) once that is built (the core answers meanwhile);
 * a university with no completed scan that the list's rows hold has an empty history. A university that neither
 * holds (unknown, or a write in between), or whose history the codes cannot say exactly, is read by the core. The
 * bytes equal `JSON.stringify` of the core's answer (test/db/spliced-json.test.ts); why it exists is in
 * docs/performance.md.
 */
export async function splicedScanHistory(db: DB, universityId: number, input: ScanHistoryInput = {}) {
  const page = input.page ?? 1;
  const limit = input.limit ?? 100;
  const table = await builtHistoryTableOf(db);
  if (table === null) return scanHistory(db, universityId, input);
  const slot = slotOf(table, universityId);
  if (slot < 0) {
    const texts = await universityTextsOf(db);
    if (slotOf(texts, universityId) < 0) return scanHistory(db, universityId, input);
    return { data: new HistoryJson(table, []), meta: { page, limit, total: 0 } };
  }
  if (table.exact[slot] !== 1) return scanHistory(db, universityId, input);
  const start = table.starts[slot] as number;
  const total = (table.starts[slot + 1] as number) - start;
  const offset = (page - 1) * limit;
  const entries: number[] = [];
  for (let k = offset; k < Math.min(total, offset + limit); k++) entries.push(start + k);
  return { data: new HistoryJson(table, entries), meta: { page, limit, total } };
}
