/**
 * What a CSV answer says in headers, having no envelope: the list's meta (`X-Unirank-Meta`, its JSON in ASCII),
 * its size (`X-Total-Count`) and the next page: `Link: <…>; rel="next"` (RFC 8288), and for a walk `X-Next-Cursor`.
 */

/** JSON with every character beyond ASCII escaped, fit for a header value. */
const asciiJson = (value: unknown): string =>
  JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );

/** Query text that `URLSearchParams` writes back as it reads it: no escapes, no `+`, nothing it would encode. */
const PLAIN_QUERY = /^[A-Za-z0-9*._\-=&]*$/;
const PLAIN_VALUE = /^[A-Za-z0-9*._-]*$/;

/**
 * The request's own target with `key` set to `value` and `drop` left out (`page` or `cursor` of the next page), as
 * `URLSearchParams` writes it: `key` keeps the place of its first occurrence, or comes last. A plain query is
 * rewritten by its parts, which gives the same text without parsing and serialising every parameter.
 */
function nextTarget(pathname: string, search: string, key: string, value: string, drop: string): string {
  if (!PLAIN_QUERY.test(search) || !PLAIN_VALUE.test(value))
    return serialisedTarget(pathname, search, key, value, drop);
  const parts: string[] = [];
  let placed = false;
  for (const part of search.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    // A second `=` belongs to the value, which `URLSearchParams` would write as `%3D`.
    if (eq !== part.lastIndexOf("=")) return serialisedTarget(pathname, search, key, value, drop);
    const name = eq < 0 ? part : part.slice(0, eq);
    if (name === drop) continue;
    if (name === key) {
      if (!placed) parts.push(`${key}=${value}`);
      placed = true;
    } else parts.push(eq < 0 ? `${part}=` : part);
  }
  if (!placed) parts.push(`${key}=${value}`);
  return `${pathname}?${parts.join("&")}`;
}

/** `nextTarget` by `URLSearchParams` itself, for any query. */
function serialisedTarget(
  pathname: string,
  search: string,
  key: string,
  value: string,
  drop: string,
): string {
  const params = new URLSearchParams(search);
  params.delete(drop);
  params.set(key, value);
  return `${pathname}?${params.toString()}`;
}

export function listHeaders(meta: unknown, pathname: string, search: string): Record<string, string> {
  if (meta === null || typeof meta !== "object") return {};
  const m = meta as Record<string, unknown>;
  const headers: Record<string, string> = { "X-Unirank-Meta": asciiJson(m) };
  if (typeof m.total === "number") headers["X-Total-Count"] = String(m.total);
  if ("next_cursor" in m) {
    if (typeof m.next_cursor === "string") {
      headers["X-Next-Cursor"] = m.next_cursor;
      headers.Link = `<${nextTarget(pathname, search, "cursor", m.next_cursor, "page")}>; rel="next"`;
    }
  } else if (typeof m.page === "number" && typeof m.limit === "number" && typeof m.total === "number") {
    if (m.page * m.limit < m.total) {
      headers.Link = `<${nextTarget(pathname, search, "page", String(m.page + 1), "cursor")}>; rel="next"`;
    }
  }
  return headers;
}
