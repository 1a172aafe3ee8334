import type { Clock, DB, Regression, RegressionsParams } from "../../../lib/index.ts";
import { regressions } from "../../../lib/index.ts";
import { JsonRows } from "./json-text.ts";

/** A regression row's text, with the parts it was made of. */
interface RowText extends Pick<Regression, "university" | "category" | "previous" | "drop"> {
  text: string;
}

/**
 * The JSON text of each row the core keeps for its generation, by the row's `current` scan (a kept row shares its
 * parts with every answer that shows it): made once instead of serialised per request, and made again when a row
 * comes with other parts (a walk's older drop).
 */
const rowTexts = new WeakMap<Regression["current"], RowText>();

function rowText(r: Regression): string {
  const kept = rowTexts.get(r.current);
  if (
    kept !== undefined &&
    kept.university === r.university &&
    kept.previous === r.previous &&
    kept.category === r.category &&
    kept.drop === r.drop
  ) {
    return kept.text;
  }
  const text = JSON.stringify(r);
  rowTexts.set(r.current, {
    university: r.university,
    category: r.category,
    previous: r.previous,
    drop: r.drop,
    text,
  });
  return text;
}

/**
 * The HTTP fast path of `/regressions`: the core's answer, its rows spliced from the texts of their kept parts.
 * The bytes equal `JSON.stringify` of the core's rows (test/db/spliced-json.test.ts); why it exists is in
 * docs/performance.md.
 */
export async function splicedRegressions(db: DB, params: RegressionsParams, clock: Clock) {
  const { data, meta } = await regressions(db, params, { clock });
  return { data: regressionRowsJson(data), meta };
}

/** Regression rows as JSON texts. */
export function regressionRowsJson(data: readonly Regression[]): JsonRows {
  const rows = data.map(rowText);
  return new JsonRows(rows);
}
