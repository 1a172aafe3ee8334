import type { CheckPoints, ScoredPart } from "../../scores/check-points.ts";
import { type CheckDefinition, earned } from "../rubric/check-table.ts";
import { scoreFromChecks } from "../rubric/points.ts";
import type { PageTimings } from "./observations.ts";

interface VitalRule {
  key: "lcpMs" | "cls" | "tbtMs";
  id: string;
  label: string;
  max: number;
  /** Upper bounds of "good" and "needs improvement" (web.dev thresholds; TBT as the lab proxy of INP). */
  good: number;
  poor: number;
  unit: "ms" | "";
  remediation: string;
}

export const WEB_VITALS: readonly VitalRule[] = [
  {
    key: "lcpMs",
    id: "lcp",
    label: "Largest Contentful Paint",
    max: 40,
    good: 2500,
    poor: 4000,
    unit: "ms",
    remediation: "Bring the largest element's paint under 2.5 s on a mobile connection.",
  },
  {
    key: "cls",
    id: "cls",
    label: "Cumulative Layout Shift",
    max: 30,
    good: 0.1,
    poor: 0.25,
    unit: "",
    remediation: "Keep layout shift under 0.1: give images and embeds explicit sizes.",
  },
  {
    key: "tbtMs",
    id: "tbt",
    label: "Total Blocking Time (lab proxy of INP)",
    max: 30,
    good: 200,
    poor: 600,
    unit: "ms",
    remediation: "Keep main-thread blocking under 200 ms on a mid-range phone.",
  },
];

const show = (v: number, unit: string) => (unit === "ms" ? `${Math.round(v)} ms` : v.toFixed(3));

/** The Core Web Vitals checks as data, in `WEB_VITALS` order. */
export const CWV_CHECKS: readonly CheckDefinition[] = WEB_VITALS.map((v) => ({
  id: `cwv.${v.id}`,
  score: "tech_core_web_vitals_score",
  label: v.label,
  max: v.max,
  earns: `good (≤ ${show(v.good, v.unit)}) ${v.max}, needs improvement (≤ ${show(v.poor, v.unit)}) ${v.max / 2}, poor 0; from the mobile load`,
  remediation: v.remediation,
  reference: "web-vitals",
}));

/** Core Web Vitals on the mobile load: good earns all of a vital's points, needs-improvement half, poor none. */
export function scoreWebVitals(mobile: PageTimings): ScoredPart {
  const checks: CheckPoints[] = WEB_VITALS.map((v, i) => {
    const def = CWV_CHECKS[i] as CheckDefinition;
    const value = mobile[v.key];
    if (value === null) return earned(def, 0, `${v.label} was not reported.`);
    const band = value <= v.good ? "good" : value <= v.poor ? "needs improvement" : "poor";
    const points = band === "good" ? v.max : band === "poor" ? 0 : v.max / 2;
    const detail = `${v.label} ${show(value, v.unit)}: ${band} (good ≤ ${show(v.good, v.unit)}, poor > ${show(v.poor, v.unit)}).`;
    return earned(def, points, detail);
  });
  return { scores: { tech_core_web_vitals_score: scoreFromChecks(checks) }, checks, unmeasured: {} };
}
