/**
 * DMARC records as RFC 7489 defines them: the tag-value syntax of DKIM (RFC 6376 §3.2: a tag given twice
 * invalidates the record), the formal definition of §6.4 (`v=DMARC1` first, its value case-sensitive; `p` directly
 * after it; white space around `=` and `;`), and policy discovery of §6.6.3 (one record, or none is applied; a
 * record without a valid `p`, or with an invalid `sp`, counts as `p=none` when it has a valid `rua`).
 */

export type DmarcPolicy = "none" | "quarantine" | "reject";

export interface DmarcRecord {
  /** The policy a receiver applies (`none` when it stands in for a missing or invalid `p`). */
  p: DmarcPolicy;
  sp: DmarcPolicy | null;
  pct: number;
  rua: string[];
  ruf: string[];
  adkim: "r" | "s";
  aspf: "r" | "s";
  /** The record had no valid `p` (or an invalid `sp`) and counts as `p=none` for its valid `rua` (§6.6.3 step 6). */
  fallback: boolean;
  /** Syntax errors a receiver discards in favour of defaults (§6.3). */
  ignored: string[];
}

export type DmarcParse = { ok: true; record: DmarcRecord } | { ok: false; reason: string };

const WSP = /^[ \t]*|[ \t]*$/g;
const TAG_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
const POLICIES = new Set(["none", "quarantine", "reject"]);
/** dmarc-uri: a URI (RFC 3986 scheme and more) and an optional size limit. */
const DMARC_URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s,!;]+(![0-9]+[kmgt]?)?$/i;

/** Whether a TXT record is a DMARC record at all: its first tag is `v=DMARC1` (case-sensitive value, §6.3). */
export function isDmarcRecord(text: string): boolean {
  const first = text.split(";")[0] ?? "";
  const eq = first.indexOf("=");
  return (
    eq > 0 &&
    first.slice(0, eq).replace(WSP, "").toLowerCase() === "v" &&
    first.slice(eq + 1).replace(WSP, "") === "DMARC1"
  );
}

const uris = (value: string): string[] =>
  value
    .split(",")
    .map((u) => u.replace(WSP, ""))
    .filter((u) => DMARC_URI.test(u));

/** Parses one record as a receiver does; `ok: false` when a receiver applies no DMARC with it. */
export function parseDmarc(text: string): DmarcParse {
  if (!isDmarcRecord(text))
    return { ok: false, reason: "not a DMARC record: the first tag must be v=DMARC1 (case-sensitive)" };
  const tags: [string, string][] = [];
  const seen = new Set<string>();
  const ignored: string[] = [];
  const specs = text.split(";");
  for (const [i, spec] of specs.entries()) {
    // dmarc-sep: an empty spec (a trailing or doubled ";") carries nothing.
    if (i > 0 && spec.replace(WSP, "") === "") continue;
    const eq = spec.indexOf("=");
    const name = (eq < 0 ? spec : spec.slice(0, eq)).replace(WSP, "");
    if (eq < 0 || !TAG_NAME.test(name)) {
      ignored.push(`"${spec.replace(WSP, "")}" is not a tag`);
      continue;
    }
    const key = name.toLowerCase();
    if (seen.has(key))
      return { ok: false, reason: `the tag ${key} is given twice (RFC 6376 §3.2: the record is invalid)` };
    seen.add(key);
    tags.push([key, spec.slice(eq + 1).replace(WSP, "")]);
  }
  const value = (key: string) => tags.find(([k]) => k === key)?.[1];
  const rua = uris(value("rua") ?? "");
  const ruf = uris(value("ruf") ?? "");
  const [second, secondValue = ""] = tags[1] ?? [];
  const p =
    second === "p" && POLICIES.has(secondValue.toLowerCase())
      ? (secondValue.toLowerCase() as DmarcPolicy)
      : null;
  const spRaw = value("sp");
  const spValid = spRaw === undefined || POLICIES.has(spRaw.toLowerCase());
  let fallback = false;
  if (p === null || !spValid) {
    const why =
      p === null
        ? second === "p"
          ? `p=${secondValue} is not none, quarantine or reject`
          : value("p") !== undefined
            ? "p is not the tag right after v"
            : "there is no p tag"
        : `sp=${spRaw} is not none, quarantine or reject`;
    if (rua.length === 0) return { ok: false, reason: `${why}, and no valid rua (RFC 7489 §6.6.3)` };
    ignored.push(`${why}: p=none applies for the valid rua (RFC 7489 §6.6.3)`);
    fallback = true;
  }
  const pctRaw = value("pct");
  let pct = 100;
  if (pctRaw !== undefined) {
    if (/^\d{1,3}$/.test(pctRaw) && Number(pctRaw) <= 100) pct = Number(pctRaw);
    else ignored.push(`pct=${pctRaw} is not 0–100: 100 applies`);
  }
  const align = (key: string): "r" | "s" => {
    const v = value(key)?.toLowerCase();
    if (v === "r" || v === "s") return v;
    if (v !== undefined) ignored.push(`${key}=${value(key)} is not r or s: r applies`);
    return "r";
  };
  if (value("rua") !== undefined && rua.length === 0) ignored.push("rua has no valid URI");
  return {
    ok: true,
    record: {
      p: fallback ? "none" : (p as DmarcPolicy),
      sp: fallback || spRaw === undefined ? null : (spRaw.toLowerCase() as DmarcPolicy),
      pct,
      rua,
      ruf,
      adkim: align("adkim"),
      aspf: align("aspf"),
      fallback,
      ignored,
    },
  };
}

/**
 * Policy discovery at one name (RFC 7489 §6.6.3 steps 2, 5 and 6): records that are not DMARC records are
 * discarded; with none or several left, no DMARC applies.
 */
export function discoverDmarc(txt: readonly string[]): DmarcParse {
  const candidates = txt.filter(isDmarcRecord);
  if (candidates.length === 0) return { ok: false, reason: "no v=DMARC1 record" };
  if (candidates.length > 1)
    return { ok: false, reason: `${candidates.length} v=DMARC1 records: none applies` };
  return parseDmarc(candidates[0] as string);
}
