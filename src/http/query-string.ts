import type { RawParams } from "../../lib/index.ts";

/**
 * A query string (without `?`) as raw parameters: repeated names as arrays, in order. Linear in the query's
 * length however often a name repeats, and the result has no prototype, so any name (`__proto__`,
 * `constructor`) is just a parameter. Percent-decoding and `+` as space only where the query has them.
 */
export function parseQueryString(search: string): RawParams {
  const out: Record<string, string | string[]> = Object.create(null);
  if (search === "") return out;
  const add = (k: string, v: string) => {
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else if (typeof prev === "string") out[k] = [prev, v];
    else prev.push(v);
  };
  if (search.includes("%") || search.includes("+")) {
    for (const [k, v] of new URLSearchParams(search)) add(k, v);
    return out;
  }
  for (const part of search.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    add(eq < 0 ? part : part.slice(0, eq), eq < 0 ? "" : part.slice(eq + 1));
  }
  return out;
}
