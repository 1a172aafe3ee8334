import { type Static, Type } from "@sinclair/typebox";

/** Lab timings of one page load, as the browser reported them. */
export const PageTimings = Type.Object({
  /** First Contentful Paint, ms from navigation start; null when nothing was painted. */
  fcpMs: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  /** Largest Contentful Paint, ms; null when no candidate was reported. */
  lcpMs: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  /** Cumulative Layout Shift: the largest session window of shifts without recent input. */
  cls: Type.Number({ minimum: 0 }),
  /** Total Blocking Time: the sum over long tasks after FCP of their time beyond 50 ms. */
  tbtMs: Type.Number({ minimum: 0 }),
  /** The load event, ms; null when it did not fire in time. */
  loadMs: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  /** Bytes transferred and requests made by the page (blocked ones excluded). */
  bytes: Type.Integer({ minimum: 0 }),
  requests: Type.Integer({ minimum: 0 }),
});
export type PageTimings = Static<typeof PageTimings>;

/** A rectangle in CSS pixels of the layout viewport. */
export const Box = Type.Object({ x: Type.Number(), y: Type.Number(), w: Type.Number(), h: Type.Number() });
export type Box = Static<typeof Box>;

/** What the mobile page looked like after load. */
export const MobileLayout = Type.Object({
  /** The `content` of `<meta name="viewport">`, null when absent. */
  viewport: Type.Union([Type.String(), Type.Null()]),
  /** Layout viewport width (CSS px) and the device's screen width: without a viewport tag the first is 980. */
  layoutWidth: Type.Number({ minimum: 1 }),
  deviceWidth: Type.Number({ minimum: 1 }),
  /** The document's scroll width (CSS px). */
  scrollWidth: Type.Number({ minimum: 0 }),
  /** Visible text as [computed font size in CSS px, characters]. */
  fontSizes: Type.Array(Type.Tuple([Type.Number({ minimum: 0 }), Type.Integer({ minimum: 0 })])),
  /** Visible links, buttons and form controls (the first 200 in document order). */
  tapTargets: Type.Array(Box),
});
export type MobileLayout = Static<typeof MobileLayout>;

export const Impact = Type.Union([
  Type.Literal("minor"),
  Type.Literal("moderate"),
  Type.Literal("serious"),
  Type.Literal("critical"),
]);
export type Impact = Static<typeof Impact>;

/** One axe-core rule that applied to the page: passed (no violating element) or violated. */
export const AxeRuleOutcome = Type.Object({
  id: Type.String(),
  impact: Impact,
  passed: Type.Boolean(),
  /** Violating elements (0 when passed). */
  nodes: Type.Integer({ minimum: 0 }),
  help: Type.String(),
});
export type AxeRuleOutcome = Static<typeof AxeRuleOutcome>;

/** Everything the browser saw of one university's home page. */
export const BrowserObservations = Type.Object({
  url: Type.String(),
  finalUrl: Type.String(),
  desktop: PageTimings,
  mobile: PageTimings,
  layout: MobileLayout,
  /** axe-core version and the rules that applied (WCAG 2.0–2.2 A/AA tags). */
  axeVersion: Type.String(),
  accessibility: Type.Array(AxeRuleOutcome),
  /** Requests to other hosts, blocked (first 50, and how many in all). */
  blocked: Type.Array(Type.String()),
  blockedCount: Type.Integer({ minimum: 0 }),
});
export type BrowserObservations = Static<typeof BrowserObservations>;
