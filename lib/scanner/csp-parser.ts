/**
 * Content-Security-Policy parsing as the MDN HTTP Observatory 1.6.3 does it: several policies are intersected
 * into one effective policy (a source counts only when every policy allows it), repeated directives make a policy
 * invalid (except `report-uri` and `report-to`, which are only noted).
 */

/** A policy that cannot be parsed (empty, too short, a repeated directive). */
export class CspSyntaxError extends Error {}

export interface ParsedCsp {
  /** Directive (lower case) → sources (lower case); a directive left without sources is `'none'`. */
  directives: Map<string, Set<string>>;
  /** `report-uri` / `report-to` given more than once in one policy. */
  duplicates: Set<string>;
}

/** The shortest policy accepted: one character less than `img-src`. */
const SHORTEST_POLICY = "img-src".length - 1;
/** Directives a `<meta http-equiv>` policy may not set (HTML's rules). */
const NOT_IN_META = ["frame-ancestors", "report-uri", "sandbox"];
const ALLOWED_DUPLICATES = new Set(["report-uri", "report-to"]);
const compare = new Intl.Collator("en").compare;

interface Source {
  source: string;
  index: number;
  keep: boolean;
}

/**
 * Splits header values into policies: a client joins repeated headers with commas, and commas cannot occur in a
 * CSP directive value (CSP3 §2.2), so every comma separates two policies.
 */
export function splitPolicies(values: readonly string[]): string[] {
  return values.flatMap((v) => v.split(",").map((s) => s.trim()));
}

/** Parses and intersects `policies`; throws CspSyntaxError when one of them is invalid. */
export function parseCsp(policies: readonly string[]): ParsedCsp {
  const clean = policies.map((p) => p.replace(/[\r\n]/g, "").trim());
  const duplicates = new Set<string>();
  if (clean.length === 0) return { directives: new Map(), duplicates };
  for (const p of clean)
    if (!p || p.length < SHORTEST_POLICY) throw new CspSyntaxError(`invalid policy: "${p}"`);
  const csp = new Map<string, Source[]>();
  for (const [index, policy] of clean.entries()) {
    const seen = new Set<string>();
    for (const entry of policy.split(";")) {
      const [name, ...values] = entry.trim().split(/\s+/);
      if (!name) continue;
      const directive = name.toLowerCase();
      if (seen.has(directive)) {
        if (!ALLOWED_DUPLICATES.has(directive))
          throw new CspSyntaxError(`directive ${directive} repeated in policy ${index + 1}`);
        duplicates.add(directive);
      } else seen.add(directive);
      const keep = index === 0;
      const sources: Source[] =
        values.length > 0
          ? values.map((raw) => ({ source: raw.trim().toLocaleLowerCase(), index, keep }))
          : directive.endsWith("-src")
            ? [{ source: "'none'", index, keep }]
            : [];
      const combined = index === 0 ? [...sources] : [...(csp.get(directive) ?? []), ...sources];
      combined.sort((a, b) => compare(a.source, b.source));
      for (let i = 1; i < combined.length; i++) {
        const s = combined[i] as Source;
        const prev = combined[i - 1] as Source;
        // Within one policy a longer source under a shorter one adds nothing.
        if (s.index === prev.index && s.source.startsWith(prev.source)) s.keep = false;
        // Across policies a source counts when the other policy allows it too.
        if (s.index !== prev.index && pathPartMatch(prev.source, s.source)) s.keep = true;
      }
      const kept = combined.filter((s) => s.keep);
      csp.set(directive, kept);
      // With more policies to come, what the first allows stays only where a later one allows it too.
      if (index === 0 && policies.length > 1) for (const s of kept) s.keep = false;
    }
  }
  const directives = new Map<string, Set<string>>();
  for (const [directive, sources] of csp)
    directives.set(directive, new Set(sources.length > 0 ? sources.map((s) => s.source) : ["'none'"]));
  return { directives, duplicates };
}

/** Parses policies from `<meta http-equiv>`, without the directives a meta element may not set. */
export function parseCspMeta(policies: readonly string[]): ParsedCsp {
  const parsed = parseCsp(policies);
  for (const d of NOT_IN_META) parsed.directives.delete(d);
  return parsed;
}

/** Whether source `b` lies within source `a`, path segment by path segment (a trailing `/` is a prefix). */
function pathPartMatch(a: string, b: string): boolean {
  if (a.length === 0) return true;
  if (a === "/" && b.length === 0) return true;
  const exact = !a.endsWith("/");
  const partsA = a.split("/");
  const partsB = b.split("/");
  if (partsA.length > partsB.length) return false;
  if (exact && partsA.length !== partsB.length) return false;
  if (!exact) partsA.pop();
  for (const [i, pa] of partsA.entries()) {
    const pb = partsB[i];
    if (pb === undefined) return false;
    if (decodeURIComponent(pa) !== decodeURIComponent(pb)) return false;
  }
  return true;
}
