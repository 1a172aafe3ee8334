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

/** The request's own target with `set` applied to its query (`page` or `cursor` of the next page). */
function nextTarget(pathname: string, search: string, set: Record<string, string>, drop: string): string {
  const params = new URLSearchParams(search);
  params.delete(drop);
  for (const [k, v] of Object.entries(set)) params.set(k, v);
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
      headers.Link = `<${nextTarget(pathname, search, { cursor: m.next_cursor }, "page")}>; rel="next"`;
    }
  } else if (typeof m.page === "number" && typeof m.limit === "number" && typeof m.total === "number") {
    if (m.page * m.limit < m.total) {
      headers.Link = `<${nextTarget(pathname, search, { page: String(m.page + 1) }, "cursor")}>; rel="next"`;
    }
  }
  return headers;
}
