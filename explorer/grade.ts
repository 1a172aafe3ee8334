/** A letter grade the scanner's evidence carries (the HTTP Observatory's A+ … F for security headers). */

export interface Grade {
  grade: string;
  /** The sub-score it grades, when the evidence says. */
  score: string | null;
}

const LETTER = /^[A-F][+-]?$/;

/**
 * The first grade found in the evidence, outside its raw observations: a `grade` field (or one ending in
 * `_grade`) holding a letter A+ … F, on the evidence itself, on a part of it or on a check, or a record of grades
 * keyed by sub-score.
 * Null when there is none, so the page shows no grade rather than a guess.
 */
export function findGrade(evidence: unknown): Grade | null {
  const seen = new Set<unknown>();
  const isGrade = (v: unknown): v is string => typeof v === "string" && LETTER.test(v.trim());
  const visit = (value: unknown, score: string | null, grades: boolean, depth: number): Grade | null => {
    if (depth > 4 || value === null || typeof value !== "object" || seen.has(value)) return null;
    seen.add(value);
    const record = value as Record<string, unknown>;
    const own = typeof record.score === "string" ? record.score : score;
    for (const [key, v] of Object.entries(record)) {
      if (key === "observations" || !isGrade(v)) continue;
      if (key === "grade" || key.endsWith("_grade")) return { grade: v.trim(), score: own };
      // A record of grades keyed by sub-score: `grades: { tech_security_headers_score: "B+" }`.
      if (grades && key.endsWith("_score")) return { grade: v.trim(), score: key };
    }
    for (const [key, v] of Object.entries(record)) {
      if (key === "observations" || typeof v !== "object") continue;
      const found = visit(v, key.endsWith("_score") ? key : own, /grade/i.test(key), depth + 1);
      if (found) return found;
    }
    return null;
  };
  return visit(evidence, null, false, 0);
}
