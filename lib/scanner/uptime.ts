import type { ScoredPart } from "../scores/check-points.ts";
import type { Availability, Observations } from "./observations.ts";
import { checkTable, earned } from "./rubric/check-table.ts";
import { scoredFrom, unmeasured } from "./rubric/points.ts";

const S = "tech_uptime_score" as const;

export const UPTIME_CHECKS = checkTable(S, "unirank", {
  answered: {
    id: "uptime.answered",
    label: "Probes answered",
    max: 100,
    earns: "answered / total availability probes × 100, rounded (null without probes)",
    remediation: "Monitor availability and remove the causes of outages.",
  },
});

/** The share of availability probes answered, in whole percent (answers beyond the total count as the total); null without probes. */
export function uptimePercent(a: Availability | null | undefined): number | null {
  if (!a || a.total === 0) return null;
  return Math.round((100 * Math.min(a.answered, a.total)) / a.total);
}

/** tech_uptime_score: the share of availability probes answered; null without probes. */
export function scoreUptime(o: Observations): ScoredPart {
  const a = o.availability;
  const percent = uptimePercent(a);
  if (!a || percent === null) return unmeasured(S, "no availability probes recorded");
  const answered = Math.min(a.answered, a.total);
  return scoredFrom(S, [
    earned(UPTIME_CHECKS.answered, percent, `${answered} of ${a.total} probes answered`),
  ]);
}
