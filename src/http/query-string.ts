import type { RawParams } from "../../lib/index.ts";

/**
 * A query string (without `?`) as raw parameters: repeated names as arrays, in order. Linear in the query's
 * length however often a name repeats, and the result has no prototype, so any name (`__proto__`,
 * `constructor`) is just a parameter. Percent-decoding and `+` as space only where the query has them, as
 * `URLSearchParams` reads a query: by `decodeURIComponent` part by part, and by `URLSearchParams` itself where that
 * finds a sequence it refuses (a bad escape, bytes that are not UTF-8), which `URLSearchParams` reads leniently.
 */
export function parseQueryString(search: string): RawParams {
  if (!search.includes("%") && !search.includes("+")) return collected((add) => splitQuery(search, add));
  try {
    return collected((add) => splitQuery(search, (k, v) => add(decoded(k), decoded(v))));
  } catch {
    return collected((add) => {
      for (const [k, v] of new URLSearchParams(search)) add(k, v);
    });
  }
}

/** The parameters `fill` adds, a repeated name's values as an array in order, in an object without a prototype. */
function collected(fill: (add: (name: string, value: string) => void) => void): RawParams {
  const out: Record<string, string | string[]> = Object.create(null);
  fill((k, v) => {
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else if (typeof prev === "string") out[k] = [prev, v];
    else prev.push(v);
  });
  return out;
}

/** Each `name=value` part of a query, in order; a part without `=` has the value `""`, an empty part none. */
function splitQuery(search: string, each: (name: string, value: string) => void): void {
  for (const part of search.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    each(eq < 0 ? part : part.slice(0, eq), eq < 0 ? "" : part.slice(eq + 1));
  }
}

/** A name or value with `+` as space and its escapes decoded; throws where `decodeURIComponent` refuses them. */
function decoded(text: string): string {
  const spaced = text.includes("+") ? text.replaceAll("+", " ") : text;
  return spaced.includes("%") ? decodeURIComponent(spaced) : spaced;
}
