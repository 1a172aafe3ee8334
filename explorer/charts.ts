import uPlot from "uplot";
import { h } from "./dom.ts";
import { fmt } from "./format.ts";

/**
 * Charts on uPlot: a canvas each, with a text label, a legend of our own that shows values without hovering,
 * and the same data in a table beside them for screen readers. Colours come from the stylesheet's variables.
 */

const css = (name: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || "#888";
const colour = (i: number) => `c${(i % 10) + 1}`;

function frame(label: string): { box: HTMLElement; plot: HTMLElement } {
  const plot = h("div", { class: "plot", role: "img", "aria-label": label });
  return { box: h("figure", { class: "chart" }, h("figcaption", {}, label), plot), plot };
}

/** The plot box is a block: its width is the figure's content width, which the chart fills. */
const width = (el: HTMLElement) => Math.max(240, Math.min(el.clientWidth || 640, 1600));

const axisStyle = () => {
  const grid = { stroke: css("--grid"), width: 1 };
  return { stroke: css("--fg-muted"), grid, ticks: grid };
};

/** Draws a chart into `plot` once it is laid out (its width), and keeps it as wide as its box. */
function draw(
  plot: HTMLElement,
  height: number,
  options: (axis: ReturnType<typeof axisStyle>) => Omit<uPlot.Options, "width" | "height">,
  data: uPlot.AlignedData,
): void {
  requestAnimationFrame(() => {
    const o = options(axisStyle());
    // The x axis' span as an attribute, for whoever checks what the axis shows.
    const spans = (u: uPlot, key: string) => {
      if (key === "x") plot.dataset.xRange = `${u.scales.x?.min},${u.scales.x?.max}`;
    };
    o.hooks = { ...o.hooks, setScale: [...(o.hooks?.setScale ?? []), spans] };
    const chart = new uPlot({ width: width(plot), height, legend: { show: false }, ...o }, data, plot);
    new ResizeObserver(() => {
      const w = width(plot);
      if (w !== chart.width) chart.setSize({ width: w, height: chart.height });
    }).observe(plot);
    plot.dataset.drawn = "true";
  });
}

/** A colour square of series `i` (coloured through the CSSOM, which the CSP allows, unlike style attributes). */
function swatch(i: number): HTMLElement {
  const el = h("span", { class: "swatch", "aria-hidden": "true" });
  el.style.background = css(`--${colour(i)}`);
  return el;
}

/** A legend that always shows values: the latest (or the hovered) point of each series. */
function legend(series: { label: string; values: (number | null)[] }[]) {
  const values = series.map(() => h("span", { class: "lv" }));
  const heading = h("span", { class: "lt" });
  const list = h(
    "ul",
    { class: "legend" },
    h("li", { class: "lh" }, heading),
    ...series.map((s, i) => h("li", {}, swatch(i), h("span", { class: "ll" }, s.label), values[i] ?? "")),
  );
  const show = (idx: number, what: string) => {
    heading.textContent = what;
    series.forEach((s, i) => {
      const el = values[i];
      if (el) el.textContent = fmt(s.values[idx]);
    });
  };
  return { list, show };
}

/** Scores over time (x in seconds since the epoch); one scan or five hundred, the axes stay readable. */
export function timeline(
  label: string,
  xs: number[],
  series: { label: string; values: (number | null)[] }[],
  dateOf: (i: number) => string,
): HTMLElement {
  const { box, plot } = frame(label);
  const last = xs.length - 1;
  const key = legend(series);
  const latest = () => key.show(last, `Latest scan, ${dateOf(last)}`);
  latest();
  box.append(key.list);
  const day = 86_400;
  draw(
    plot,
    260,
    (axis) => ({
      scales: {
        // One scan: a month around it; several: their span with a little room on each side. Taken from the data
        // itself: for a single point uPlot proposes a span of 1000 days to the right of it.
        x: {
          time: true,
          range: () => {
            const min = xs[0] ?? 0;
            const max = xs[last] ?? min;
            const pad = max - min < day ? 15 * day : (max - min) * 0.04;
            return [min - pad, max + pad];
          },
        },
        y: { range: [0, 100] },
      },
      axes: [
        { ...axis, space: 70 },
        { ...axis, label: "score", size: 50, splits: () => [0, 25, 50, 75, 100] },
      ],
      cursor: { y: false },
      hooks: {
        setCursor: [
          (u) => {
            const i = u.cursor.idx;
            if (i == null) latest();
            else key.show(i, i === last ? `Latest scan, ${dateOf(i)}` : `Scan of ${dateOf(i)}`);
          },
        ],
      },
      series: [
        {},
        ...series.map((s, i) => ({
          label: s.label,
          stroke: css(`--${colour(i)}`),
          width: i === 0 ? 3 : 1.5,
          spanGaps: true,
          points: { show: xs.length <= 60, size: i === 0 ? 7 : 5 },
        })),
      ],
    }),
    [xs, ...series.map((s) => s.values)] as uPlot.AlignedData,
  );
  return box;
}

/** A histogram of bins over 0..100. */
export function histogram(label: string, bins: { from: number; to: number; count: number }[]): HTMLElement {
  const { box, plot } = frame(label);
  const xs = bins.map((b) => (b.from + b.to) / 2);
  const ys = bins.map((b) => b.count);
  draw(
    plot,
    260,
    (axis) => ({
      cursor: { show: false },
      scales: {
        x: { time: false, range: [0, 100] },
        y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] },
      },
      axes: [
        { ...axis, label: "score" },
        { ...axis, label: "universities", size: 50 },
      ],
      series: [
        {},
        {
          label: "universities",
          fill: css("--c1"),
          stroke: css("--c1"),
          paths: uPlot.paths.bars?.({ size: [0.9, Infinity], align: 0 }),
          points: { show: false },
        },
      ],
    }),
    [xs, ys],
  );
  return box;
}

/**
 * Grouped horizontal bars: one group per score (its label on the left, where it has room even on a phone),
 * one bar per series within it, 0..100 along the bottom. Each bar sits on its own slot of the shared x axis.
 */
export function groupedBars(
  label: string,
  groups: string[],
  series: { label: string; values: (number | null)[] }[],
): HTMLElement {
  const { box, plot } = frame(label);
  const n = Math.max(1, series.length);
  const slot = 1 / (n + 1);
  const xs: number[] = [];
  const ys = series.map(() => [] as (number | null)[]);
  groups.forEach((_, g) => {
    series.forEach((s, i) => {
      xs.push(g + (i - (n - 1) / 2) * slot);
      ys.forEach((col, j) => {
        col.push(j === i ? (s.values[g] ?? null) : null);
      });
    });
  });
  const key = legend(series);
  key.show(0, "Overall");
  box.append(key.list);
  const height = Math.max(220, groups.length * (n * 12 + 22) + 40);
  draw(
    plot,
    height,
    (axis) => ({
      cursor: { show: false },
      scales: {
        x: { time: false, ori: 1, dir: -1, range: [-0.5, groups.length - 0.5] },
        y: { range: [0, 100], ori: 0 },
      },
      axes: [
        {
          ...axis,
          side: 3,
          size: 100,
          gap: 6,
          splits: () => groups.map((_, g) => g),
          values: (_u, ticks) => ticks.map((t) => groups[t] ?? ""),
          grid: { show: false },
        },
        { ...axis, side: 2, splits: () => [0, 25, 50, 75, 100] },
      ],
      series: [
        {},
        ...series.map((s, i) => ({
          label: s.label,
          fill: css(`--${colour(i)}`),
          stroke: css(`--${colour(i)}`),
          paths: uPlot.paths.bars?.({ size: [0.85, 18], align: 0 }),
          points: { show: false },
        })),
      ],
    }),
    [xs, ...ys] as uPlot.AlignedData,
  );
  return box;
}
