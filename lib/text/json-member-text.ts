/**
 * The text of a top-level member's value in a JSON object, as written (`100.000000000000000000001`, which
 * `JSON.parse` reads as 100), or undefined when the object has no such member. The last of repeated names wins,
 * as in `JSON.parse`. `json` must be valid JSON (it was parsed already); nothing else is checked.
 */
export function jsonMemberText(json: string, name: string): string | undefined {
  let found: string | undefined;
  let i = json.indexOf("{") + 1;
  if (i === 0) return undefined;
  const skipSpace = () => {
    while (i < json.length && " \t\r\n".includes(json[i] as string)) i++;
  };
  /** The end (exclusive) of the string starting at `start` (its opening quote). */
  const stringEnd = (start: number) => {
    let j = start + 1;
    while (j < json.length && json[j] !== '"') j += json[j] === "\\" ? 2 : 1;
    return j + 1;
  };
  /** The end (exclusive) of the value starting at `start`. */
  const valueEnd = (start: number) => {
    const first = json[start];
    if (first === '"') return stringEnd(start);
    if (first !== "{" && first !== "[") {
      let j = start;
      while (j < json.length && !",}] \t\r\n".includes(json[j] as string)) j++;
      return j;
    }
    let depth = 0;
    let j = start;
    while (j < json.length) {
      const c = json[j];
      if (c === '"') {
        j = stringEnd(j);
        continue;
      }
      if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") depth--;
      j++;
      if (depth === 0) return j;
    }
    return j;
  };
  for (;;) {
    skipSpace();
    if (json[i] !== '"') return found;
    const keyEnd = stringEnd(i);
    const rawKey = json.slice(i, keyEnd);
    const key = rawKey.includes("\\") ? (JSON.parse(rawKey) as string) : rawKey.slice(1, -1);
    i = keyEnd;
    skipSpace();
    i++; // the colon
    skipSpace();
    const end = valueEnd(i);
    if (key === name) found = json.slice(i, end);
    i = end;
    skipSpace();
    if (json[i] !== ",") return found;
    i++;
  }
}
