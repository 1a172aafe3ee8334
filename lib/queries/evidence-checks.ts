import type { CheckPoints } from "../scores/check-points.ts";

const isCheck = (c: unknown): c is CheckPoints => {
  if (typeof c !== "object" || c === null) return false;
  const x = c as Record<string, unknown>;
  return (
    typeof x.id === "string" &&
    typeof x.score === "string" &&
    typeof x.label === "string" &&
    typeof x.points === "number" &&
    Number.isFinite(x.points) &&
    typeof x.max === "number" &&
    Number.isFinite(x.max) &&
    typeof x.detail === "string" &&
    (x.remediation === null || typeof x.remediation === "string")
  );
};

/**
 * The rubric checks a scan's evidence carries (`evidence.checks` of a scan made by `unirank scan`), or null when
 * it carries none in that form (no evidence, a failed scan's empty list, an imported record of another shape).
 */
export function evidenceChecks(evidence: Record<string, unknown> | null): CheckPoints[] | null {
  const checks = evidence?.checks;
  if (!Array.isArray(checks) || checks.length === 0 || !checks.every(isCheck)) return null;
  return checks;
}
