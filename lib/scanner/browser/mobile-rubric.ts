import type { ScoredPart } from "../../scores/check-points.ts";
import { checkTable, earned } from "../rubric/check-table.ts";
import { scoreFromChecks } from "../rubric/points.ts";
import type { Box, MobileLayout } from "./observations.ts";

const S = "tech_mobile_friendly_score";

/** Smallest legible font (CSS px on the device) and the share of text that must reach it (Lighthouse: 12 px, 60 percent). */
export const LEGIBLE_FONT_PX = 12;
export const LEGIBLE_SHARE = 0.6;
/** A tap target this large (CSS px on the device) each way, or this far from others, is easy to hit. */
export const TAP_TARGET_PX = 48;

export const MOBILE_CHECKS = checkTable(S, "lighthouse", {
  viewport: {
    id: "mobile.viewport",
    label: "Viewport tag",
    max: 30,
    earns:
      '`<meta name="viewport">` has `width=device-width` (30); another `width` or `initial-scale` (15); none (0)',
    remediation: 'Add <meta name="viewport" content="width=device-width, initial-scale=1">.',
  },
  zoom: {
    id: "mobile.zoom",
    label: "Zoom allowed",
    max: 10,
    earns: "the viewport tag does not set `user-scalable=no`/`0` or a `maximum-scale` below 2",
    remediation: "Remove user-scalable=no and any maximum-scale below 2 from the viewport tag.",
  },
  width: {
    id: "mobile.content-width",
    label: "Content fits the screen",
    max: 20,
    earns: "the document is no wider than the viewport (no sideways scrolling)",
    remediation: "Let wide elements shrink (max-width: 100%) so nothing scrolls sideways.",
  },
  fonts: {
    id: "mobile.font-size",
    label: "Legible font sizes",
    max: 20,
    earns: "≥ 60 % of the visible text's characters are ≥ 12 px on the phone; below that, `20 × share / 0.6`",
    remediation: "Use a base font of at least 16 px and keep small print under 40 % of the text.",
  },
  taps: {
    id: "mobile.tap-targets",
    label: "Tap targets",
    max: 20,
    earns:
      "`20 × share` of visible links, buttons and form controls (the first 200) that are ≥ 48×48 px, or whose 48×48 box around their centre touches no other target (no targets: 20)",
    remediation: "Make links and buttons at least 48×48 px or space them apart.",
  },
});

/** Parses a viewport `content` into lower-case keys and values. */
export function parseViewport(content: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of content.split(/[,;]/)) {
    const [k, v] = part.split("=");
    if (k?.trim()) out.set(k.trim().toLowerCase(), (v ?? "").trim().toLowerCase());
  }
  return out;
}

const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Targets that are at least 48×48, or whose 48×48 box around their centre touches no other target. */
export function wellSizedTargets(targets: readonly Box[], scale: number): number {
  const boxes = targets.map((t) => ({ x: t.x * scale, y: t.y * scale, w: t.w * scale, h: t.h * scale }));
  let ok = 0;
  boxes.forEach((b, i) => {
    if (b.w >= TAP_TARGET_PX && b.h >= TAP_TARGET_PX) {
      ok++;
      return;
    }
    const w = Math.max(b.w, TAP_TARGET_PX);
    const h = Math.max(b.h, TAP_TARGET_PX);
    const zone = { x: b.x + b.w / 2 - w / 2, y: b.y + b.h / 2 - h / 2, w, h };
    if (!boxes.some((o, j) => j !== i && overlaps(zone, o))) ok++;
  });
  return ok;
}

/**
 * Mobile-friendliness of the page as a 412 px wide phone showed it: viewport tag 30, zoom allowed 10, content fits
 * the screen 20, legible text 20, tap targets 20. Sizes are scaled to the device when the page lays out wider.
 */
export function scoreMobileFriendly(layout: MobileLayout): ScoredPart {
  const vp = layout.viewport === null ? null : parseViewport(layout.viewport);
  const deviceWidth = vp?.get("width") === "device-width";
  const scale = Math.min(1, layout.deviceWidth / layout.layoutWidth);

  const viewport = earned(
    MOBILE_CHECKS.viewport,
    vp === null ? 0 : deviceWidth ? 30 : vp.has("width") || vp.has("initial-scale") ? 15 : 0,
    vp === null ? "No <meta name=viewport> tag." : `<meta name=viewport content="${layout.viewport}">.`,
  );

  const maxScale = Number.parseFloat(vp?.get("maximum-scale") ?? "");
  const userScalable = vp?.get("user-scalable");
  const zoomBlocked =
    userScalable === "no" || userScalable === "0" || (Number.isFinite(maxScale) && maxScale < 2);
  const zoom = earned(
    MOBILE_CHECKS.zoom,
    zoomBlocked ? 0 : 10,
    zoomBlocked ? "The viewport tag stops users from zooming." : "Users may zoom.",
  );

  const overflow = Math.max(0, Math.round(layout.scrollWidth - layout.layoutWidth));
  const width = earned(
    MOBILE_CHECKS.width,
    overflow <= 1 ? 20 : 0,
    overflow <= 1
      ? "No horizontal scrolling."
      : `Content is ${overflow} px wider than the ${layout.layoutWidth} px viewport.`,
  );

  let chars = 0;
  let legible = 0;
  for (const [px, n] of layout.fontSizes) {
    chars += n;
    if (px * scale >= LEGIBLE_FONT_PX) legible += n;
  }
  const share = chars === 0 ? 1 : legible / chars;
  const fonts = earned(
    MOBILE_CHECKS.fonts,
    20 * Math.min(1, share / LEGIBLE_SHARE),
    chars === 0
      ? "No visible text."
      : `${Math.round(share * 100)} % of visible text is at least ${LEGIBLE_FONT_PX} px on the phone (60 % earns all points).`,
  );

  const targets = layout.tapTargets.length;
  const ok = wellSizedTargets(layout.tapTargets, scale);
  const taps = earned(
    MOBILE_CHECKS.taps,
    targets === 0 ? 20 : (20 * ok) / targets,
    targets === 0
      ? "No links or controls."
      : `${ok} of ${targets} links and controls are ${TAP_TARGET_PX}×${TAP_TARGET_PX} px or stand clear of others.`,
  );

  const checks = [viewport, zoom, width, fonts, taps];
  return { scores: { [S]: scoreFromChecks(checks) }, checks, unmeasured: {} };
}
