import type { ScoredPart } from "../../scores/check-points.ts";
import { PART_MEASURES } from "../../scores/profile.ts";
import { mergeParts } from "../rubric/points.ts";
import { scoreAccessibility } from "./accessibility-rubric.ts";
import { scoreMobileFriendly } from "./mobile-rubric.ts";
import type { BrowserObservations } from "./observations.ts";
import { scoreSpeed } from "./speed-rubric.ts";
import { scoreWebVitals } from "./web-vitals-rubric.ts";

/** The sub-scores a browser measures (its part in the profile). */
export const BROWSER_SCORES = PART_MEASURES.browser;

/** All five browser sub-scores from one page's observations (stored observations re-score the same way). */
export function scoreBrowserObservations(o: BrowserObservations): ScoredPart {
  return mergeParts([
    scoreSpeed("desktop", o.desktop),
    scoreSpeed("mobile", o.mobile),
    scoreWebVitals(o.mobile),
    scoreMobileFriendly(o.layout),
    scoreAccessibility(o.accessibility),
  ]);
}
