/** The media type of CSV answers (RFC 4180, with its header row; RFC 7111's `header` parameter). */
export const CSV_CONTENT_TYPE = "text/csv; charset=utf-8; header=present";

/** The weight (`q`) an Accept header gives each media range it names. */
function weights(accept: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of accept.split(",")) {
    const [range, ...params] = part.split(";");
    const name = range?.trim().toLowerCase();
    if (!name) continue;
    const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    out.set(name, Number.isFinite(weight) ? weight : 0);
  }
  return out;
}

/**
 * True when the request asks for CSV: `format=csv`, or (without `format`) an Accept header that prefers
 * `text/csv` to `application/json`. A range named exactly counts before a wildcard, so `text/csv, *\/*` is CSV and
 * `*\/*` alone JSON; at equal weight named ranges, JSON wins.
 */
export function wantsCsv(request: Request, format: unknown): boolean {
  if (format !== undefined) return format === "csv";
  const accept = request.headers.get("accept");
  if (accept === null || !accept.includes("csv")) return false;
  const w = weights(accept);
  const csv = w.get("text/csv") ?? 0;
  if (csv <= 0) return false;
  const json = w.get("application/json");
  return json === undefined || csv > json;
}
