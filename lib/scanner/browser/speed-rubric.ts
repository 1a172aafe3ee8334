import type { ScoreName } from "../../scores/catalogue.ts";
import type { CheckPoints, ScoredPart } from "../../scores/check-points.ts";
import { type CheckDefinition, earned } from "../rubric/check-table.ts";
import { scoreFromChecks } from "../rubric/points.ts";
import { type LogNormalCurve, logNormalScore } from "./log-normal.ts";
import type { PageTimings } from "./observations.ts";

export type FormFactor = "desktop" | "mobile";

interface MetricRule {
  key: "fcpMs" | "lcpMs" | "tbtMs" | "cls";
  id: string;
  label: string;
  /** Lighthouse 10–12 weight of the metric in its performance score. */
  weight: number;
  curve: Record<FormFactor, LogNormalCurve>;
  unit: "ms" | "";
  remediation: string;
}

/**
 * Lighthouse's performance metrics, weights and curves (desktop and mobile control points). Speed Index (weight
 * 10) needs a filmstrip and is not measured, so the maximum is 90 points.
 */
export const SPEED_METRICS: readonly MetricRule[] = [
  {
    key: "fcpMs",
    id: "fcp",
    label: "First Contentful Paint",
    weight: 10,
    curve: { desktop: { p10: 934, median: 1600 }, mobile: { p10: 1800, median: 3000 } },
    unit: "ms",
    remediation: "Send less render-blocking CSS and script before the first text or image appears.",
  },
  {
    key: "lcpMs",
    id: "lcp",
    label: "Largest Contentful Paint",
    weight: 25,
    curve: { desktop: { p10: 1200, median: 2400 }, mobile: { p10: 2500, median: 4000 } },
    unit: "ms",
    remediation:
      "Make the largest image or text block load early: compress and size images, preload the hero.",
  },
  {
    key: "tbtMs",
    id: "tbt",
    label: "Total Blocking Time",
    weight: 30,
    curve: { desktop: { p10: 150, median: 350 }, mobile: { p10: 200, median: 600 } },
    unit: "ms",
    remediation: "Split or defer long JavaScript tasks; load third-party scripts after the page is usable.",
  },
  {
    key: "cls",
    id: "cls",
    label: "Cumulative Layout Shift",
    weight: 25,
    curve: { desktop: { p10: 0.1, median: 0.25 }, mobile: { p10: 0.1, median: 0.25 } },
    unit: "",
    remediation: "Reserve space for images, embeds and banners so content does not move while loading.",
  },
];

const SCORE: Record<FormFactor, ScoreName> = {
  desktop: "tech_speed_desktop_score",
  mobile: "tech_speed_mobile_score",
};

const show = (v: number, unit: string) => (unit === "ms" ? `${Math.round(v)} ms` : v.toFixed(3));

/** The speed checks of one form factor as data, one per metric, in `SPEED_METRICS` order. */
function speedChecks(form: FormFactor): readonly CheckDefinition[] {
  return SPEED_METRICS.map((m) => {
    const { p10, median } = m.curve[form];
    return {
      id: `speed-${form}.${m.id}`,
      score: SCORE[form],
      label: m.label,
      max: m.weight,
      earns: `${m.weight} × Lighthouse's log-normal score of the ${form} value (90 % at ${show(p10, m.unit)}, 50 % at ${show(median, m.unit)}); 0 when not reported`,
      remediation: m.remediation,
      reference: "lighthouse",
    };
  });
}

export const SPEED_CHECKS: Readonly<Record<FormFactor, readonly CheckDefinition[]>> = {
  desktop: speedChecks("desktop"),
  mobile: speedChecks("mobile"),
};

/** Speed on one form factor: each metric earns `weight × log-normal score` points; 0–100 is the share of 90. */
export function scoreSpeed(form: FormFactor, t: PageTimings): ScoredPart {
  const score = SCORE[form];
  const checks: CheckPoints[] = SPEED_METRICS.map((m, i) => {
    const def = SPEED_CHECKS[form][i] as CheckDefinition;
    const value = t[m.key];
    const curve = m.curve[form];
    if (value === null) return earned(def, 0, `${m.label} was not reported.`);
    const detail = `${m.label} ${show(value, m.unit)} (${form} curve: 90 % at ${show(curve.p10, m.unit)}, 50 % at ${show(curve.median, m.unit)}).`;
    return earned(def, m.weight * logNormalScore(curve, value), detail);
  });
  return { scores: { [score]: scoreFromChecks(checks) }, checks, unmeasured: {} };
}
