import type { WalkStep } from "../../../lib/index.ts";
import { invalidParameter, sha256Hex } from "../../../lib/index.ts";

/**
 * Cursors: opaque to clients, checked by the server. A cursor is the walk's next step (`WalkStep`) as base64url
 * JSON and a tag: a hash of the operation, the list's parameters (all but `limit`, `page`, `cursor` and `format`)
 * and the step. A cursor altered, cut short, or sent with other parameters than the list that gave it fails the
 * check: a 400 naming `cursor`. The tag is no secret (a cursor only positions a walk over public data); it makes
 * a mistake a clear error instead of a page of another list.
 */

/** The cursor that starts a walk. */
export const FIRST = "*";

const FORMAT = 1;
const TAG_LENGTH = 16;
const NOT_PART_OF_THE_LIST = new Set(["limit", "page", "cursor", "format"]);

/** The parameters that say which list a walk reads, in a stable text. */
function listOf(operation: string, query: Record<string, unknown>): string {
  const keys = Object.keys(query)
    .filter((k) => !NOT_PART_OF_THE_LIST.has(k) && query[k] !== undefined)
    .sort();
  return JSON.stringify([operation, keys.map((k) => [k, query[k]])]);
}

const tagOf = (list: string, body: string) => sha256Hex(`${list}\n${body}`).slice(0, TAG_LENGTH);

export function encodeCursor(operation: string, query: Record<string, unknown>, step: WalkStep): string {
  const body = Buffer.from(JSON.stringify([FORMAT, step.snapshot, step.offset, step.after])).toString(
    "base64url",
  );
  return `${body}.${tagOf(listOf(operation, query), body)}`;
}

const invalid = (why: string) =>
  invalidParameter([
    {
      param: "cursor",
      message: `cursor ${why}; start a walk with cursor=* and pass on each answer's next_cursor unchanged, with the same parameters`,
    },
  ]);

/**
 * The step a cursor stands for (null for `*`, the first page). `after` lists the types of the sort key the
 * operation's cursors carry. Throws INVALID_PARAMETER for a cursor this list did not give.
 */
export function decodeCursor(
  operation: string,
  query: Record<string, unknown>,
  cursor: string,
  after: readonly ("string" | "number")[],
): WalkStep | null {
  if (cursor === FIRST) return null;
  const dot = cursor.indexOf(".");
  const body = dot < 0 ? "" : cursor.slice(0, dot);
  if (dot < 0 || !/^[A-Za-z0-9_-]+$/.test(body)) throw invalid("is malformed");
  if (cursor.slice(dot + 1) !== tagOf(listOf(operation, query), body))
    throw invalid("was not given by this list (altered, or given for other parameters)");
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    throw invalid("is malformed");
  }
  const [format, snapshot, offset, key] = Array.isArray(parsed) ? parsed : [];
  const ok =
    format === FORMAT &&
    (snapshot === null || (typeof snapshot === "string" && /^[0-9a-f]{16}$/.test(snapshot))) &&
    Number.isSafeInteger(offset) &&
    (offset as number) >= 0 &&
    Array.isArray(key) &&
    key.length === after.length &&
    key.every((v, i) => typeof v === after[i] && (typeof v !== "number" || Number.isFinite(v)));
  if (!ok) throw invalid("is malformed");
  return { snapshot: snapshot as string | null, offset: offset as number, after: key as (string | number)[] };
}
