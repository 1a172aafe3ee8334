import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { check, scoredFrom, unmeasured } from "./points.ts";

const S = "tech_uptime_score" as const;

/** tech_uptime_score: the share of availability probes answered; null without probes. */
export function scoreUptime(o: Observations): ScoredPart {
  const a = o.availability;
  if (!a || a.total === 0) return unmeasured(S, "no availability probes recorded");
  const answered = Math.min(a.answered, a.total);
  return scoredFrom(S, [
    check(
      S,
      "uptime.answered",
      "Probes answered",
      Math.round((100 * answered) / a.total),
      100,
      `${answered} of ${a.total} probes answered`,
      "Monitor availability and remove the causes of outages.",
    ),
  ]);
}
