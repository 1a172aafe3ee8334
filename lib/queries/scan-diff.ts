import { type ErrorDetail, UnirankError } from "../errors.ts";
import type { ScanDiffParams } from "../params/operations.ts";
import type { DB } from "../schema/database.ts";
import { SCORE_NAMES, type ScoreName } from "../scores/catalogue.ts";
import type { CheckPoints } from "../scores/check-points.ts";
import { round1 } from "../scores/derive.ts";
import { evidenceChecks } from "./evidence-checks.ts";
import { type ScanDetail, scansById, type UniversityRef, type UniversityRefs } from "./get-scan.ts";

export interface ScanSummary {
  id: number;
  university: UniversityRef;
  completed_at: string;
  profile: string;
  rubric_version: number | null;
}

export interface ScoreChange {
  score: ScoreName;
  a: number | null;
  b: number | null;
  /** `b - a` to one decimal; null when one side is not measured. */
  delta: number | null;
}

/** One side of a check change: the check as that scan scored it. */
export interface CheckSide {
  points: number;
  max: number;
  detail: string;
  remediation: string | null;
}

/** A rubric check whose points (or maximum) differ between the two scans, or that only one of them has. */
export interface CheckChange {
  id: string;
  /** The sub-score the check counts towards. */
  score: string;
  label: string;
  /** null when scan a has no such check. */
  a: CheckSide | null;
  b: CheckSide | null;
  /** `b.points - a.points` to one decimal; null when one side lacks the check. */
  delta: number | null;
}

export interface ScanDiff {
  a: ScanSummary;
  b: ScanSummary;
  changes: ScoreChange[];
  summary: { improved: number; declined: number; unchanged: number; not_comparable: number };
  /** The checks that changed; null unless both scans carry per-check evidence. */
  checks: CheckChange[] | null;
}

/** Who is named in an error: `a`, `b`, or both when a = b. */
function sides(a: number, b: number, bad: (side: "a" | "b") => boolean): ("a" | "b")[] {
  if (a === b) return bad("a") ? ["a", "b"] : [];
  return (["a", "b"] as const).filter(bad);
}

/**
 * Differences between two completed scans (of one university or of two): every score measured on at least
 * one side, `delta = b - a` to one decimal, sorted by |delta| descending then catalogue order; a score measured
 * on one side only has `delta: null`, comes last and counts as `not_comparable`. 404 names every unknown or
 * uncompleted side. `refs` is where the universities come from (`scansById`).
 */
export async function scanDiff(db: DB, params: ScanDiffParams, refs?: UniversityRefs): Promise<ScanDiff> {
  const { a, b } = params;
  const found = await scansById(db, a === b ? [a] : [a, b], refs);
  const scan = { a: found.get(a) ?? null, b: found.get(b) ?? null };
  const id = { a, b };

  const missing = sides(a, b, (s) => scan[s] === null);
  if (missing.length > 0) {
    const details: ErrorDetail[] = missing.map((s) => ({
      param: s,
      message: `Scan ${id[s]} does not exist`,
    }));
    const named = a === b ? `Scan ${a} (a and b)` : missing.map((s) => `scan ${id[s]} (${s})`).join(" and ");
    const verb = missing.length > 1 && a !== b ? "do" : "does";
    throw new UnirankError(
      "NOT_FOUND",
      `${named.charAt(0).toUpperCase()}${named.slice(1)} ${verb} not exist`,
      details,
    );
  }
  const open = sides(a, b, (s) => scan[s]?.status !== "completed");
  if (open.length > 0) {
    const details: ErrorDetail[] = open.map((s) => ({
      param: s,
      message: `Scan ${id[s]} is ${scan[s]?.status}, not completed`,
    }));
    throw new UnirankError(
      "NOT_FOUND",
      `${details.map((d) => d.message).join("; ")}; only completed scans can be compared`,
      details,
    );
  }
  const left = scan.a!;
  const right = scan.b!;

  const changes: ScoreChange[] = [];
  for (const score of SCORE_NAMES) {
    const va = left.scores?.[score] ?? null;
    const vb = right.scores?.[score] ?? null;
    if (va === null && vb === null) continue;
    const delta = va === null || vb === null ? null : round1(vb - va) + 0; // + 0 turns -0 into 0
    changes.push({ score, a: va, b: vb, delta });
  }
  const weight = (c: ScoreChange) => (c.delta === null ? -1 : Math.abs(c.delta));
  // Array.prototype.sort is stable: equal weights keep the catalogue order the changes were built in.
  changes.sort((x, y) => weight(y) - weight(x));
  const summary = { improved: 0, declined: 0, unchanged: 0, not_comparable: 0 };
  for (const c of changes) {
    if (c.delta === null) summary.not_comparable++;
    else if (c.delta > 0) summary.improved++;
    else if (c.delta < 0) summary.declined++;
    else summary.unchanged++;
  }
  const brief = (s: ScanDetail): ScanSummary => ({
    id: s.id,
    university: s.university,
    completed_at: s.completed_at ?? "",
    profile: s.profile,
    rubric_version: s.rubric_version,
  });
  return {
    a: brief(left),
    b: brief(right),
    changes,
    summary,
    checks: checkChanges(evidenceChecks(left.evidence), evidenceChecks(right.evidence)),
  };
}

/** `checks` of a diff from two scans' evidence as stored (JSON text, or null where a scan has none). */
export const storedCheckChanges = (a: string | null, b: string | null): CheckChange[] | null =>
  checkChanges(
    evidenceChecks(a === null ? null : (JSON.parse(a) as Record<string, unknown>)),
    evidenceChecks(b === null ? null : (JSON.parse(b) as Record<string, unknown>)),
  );

/** Checks keyed by sub-score and id; a repeated id (e.g. two failed parts) keeps its occurrence number. */
function keyed(checks: CheckPoints[]): Map<string, CheckPoints> {
  const out = new Map<string, CheckPoints>();
  const seen = new Map<string, number>();
  for (const c of checks) {
    const base = `${c.score}\u0000${c.id}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.set(`${base}\u0000${n}`, c);
  }
  return out;
}

const side = (c: CheckPoints | undefined): CheckSide | null =>
  c ? { points: c.points, max: c.max, detail: c.detail, remediation: c.remediation } : null;

/**
 * The checks whose points or maximum differ, or that one scan lacks: largest |delta| first, one-sided ones
 * last, ties in the later scan's order (then the earlier one's). Null unless both sides carry checks.
 */
export function checkChanges(a: CheckPoints[] | null, b: CheckPoints[] | null): CheckChange[] | null {
  if (a === null || b === null) return null;
  const before = keyed(a);
  const after = keyed(b);
  const order = [...after.keys(), ...[...before.keys()].filter((k) => !after.has(k))];
  const out: CheckChange[] = [];
  for (const key of order) {
    const x = before.get(key);
    const y = after.get(key);
    if (x && y && x.points === y.points && x.max === y.max) continue;
    const named = (y ?? x) as CheckPoints;
    out.push({
      id: named.id,
      score: named.score,
      label: named.label,
      a: side(x),
      b: side(y),
      delta: x && y ? round1(y.points - x.points) + 0 : null,
    });
  }
  const weight = (c: CheckChange) => (c.delta === null ? -1 : Math.abs(c.delta));
  // Array.prototype.sort is stable: equal weights keep the order built above.
  return out.sort((p, q) => weight(q) - weight(p));
}
