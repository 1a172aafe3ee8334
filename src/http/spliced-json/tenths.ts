import { NULL_CODE } from "../../../lib/scores/tenths.ts";

/** The JSON of each code of tenths (`lib/scores/tenths.ts`), `k / 10`. */
const VALUE_TEXT: readonly string[] = Array.from({ length: 1001 }, (_, k) => JSON.stringify(k / 10));

/** The JSON of a code: the score as `JSON.stringify` writes it, or `null`. */
export const tenthsJson = (code: number): string =>
  code === NULL_CODE ? "null" : (VALUE_TEXT[code] as string);
