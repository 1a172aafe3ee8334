import uPlot from "uplot";
import { h } from "./dom.ts";

/** Charts on uPlot: a canvas each, with a text alternative and the data as a table for screen readers. */

const css = (name: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || "#888";
export const PALETTE = ["--c1", "--c2", "--c3", "--c4", "--c5", "--c6", "--c7", "--c8", "--c9", "--c10"];

function frame(label: string): { box: HTMLElement; plot: HTMLElement } {
  const plot = h("div", { class: "plot", role: "img", "aria-label": label });
  return { box: h("figure", { class: "chart" }, plot, h("figcaption", {}, label)), plot };
}

/** The plot box is a block: its width is the figure's content width, which the chart fills. */
const width = (el: HTMLElement) => Math.max(260, Math.min(el.clientWidth || 640, 1600));

function sized(plot: HTMLElement, make: (w: number) => uPlot): void {
  requestAnimationFrame(() => {
    const chart = make(width(plot));
    new ResizeObserver(() => {
      const w = width(plot);
      if (w !== chart.width) chart.setSize({ width: w, height: chart.height });
    }).observe(plot);
    plot.dataset.drawn = "true";
  });
}

const axes = (xLabel: string, yLabel: string): uPlot.Axis[] => {
  const stroke = css("--fg-muted");
  const grid = { stroke: css("--grid"), width: 1 };
  return [
    { label: xLabel, stroke, grid, ticks: grid },
    { label: yLabel, stroke, grid, ticks: grid },
  ];
};

/** A histogram of bins over 0..100. */
export function histogram(label: string, bins: { from: number; to: number; count: number }[]): HTMLElement {
  const { box, plot } = frame(label);
  const xs = bins.map((b) => (b.from + b.to) / 2);
  const ys = bins.map((b) => b.count);
  sized(
    plot,
    (w) =>
      new uPlot(
        {
          width: w,
          height: 260,
          legend: { show: false },
          cursor: { show: false },
          scales: {
            x: { time: false, range: [0, 100] },
            y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] },
          },
          axes: axes("score", "universities"),
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
        },
        [xs, ys],
        plot,
      ),
  );
  return box;
}

/** Lines over time (x in seconds since the epoch). */
export function lines(
  label: string,
  xs: number[],
  series: { label: string; values: (number | null)[] }[],
): HTMLElement {
  const { box, plot } = frame(label);
  sized(
    plot,
    (w) =>
      new uPlot(
        {
          width: w,
          height: 280,
          scales: { y: { range: [0, 100] } },
          axes: axes("", "score"),
          series: [
            {},
            ...series.map((s, i) => ({
              label: s.label,
              stroke: css(PALETTE[i % PALETTE.length] ?? "--c1"),
              width: i === 0 ? 3 : 1.5,
              spanGaps: true,
              points: { show: true, size: 5 },
            })),
          ],
        },
        [xs, ...series.map((s) => s.values)] as uPlot.AlignedData,
        plot,
      ),
  );
  return box;
}

/** One line per university across a few named scores (a profile), so up to ten stay readable. */
export function profile(
  label: string,
  groups: string[],
  series: { label: string; values: (number | null)[] }[],
): HTMLElement {
  const { box, plot } = frame(label);
  const xs = groups.map((_, i) => i);
  const [xAxis, yAxis] = axes("", "score");
  sized(
    plot,
    (w) =>
      new uPlot(
        {
          width: w,
          height: 300,
          scales: { x: { time: false, range: [-0.3, groups.length - 0.7] }, y: { range: [0, 100] } },
          axes: [
            { ...xAxis, splits: () => xs, values: (_u, ticks) => ticks.map((t) => groups[t] ?? "") },
            { ...yAxis },
          ],
          series: [
            { label: "score" },
            ...series.map((s, i) => ({
              label: s.label,
              stroke: css(PALETTE[i % PALETTE.length] ?? "--c1"),
              width: 2,
              spanGaps: true,
              points: { show: true, size: 7 },
            })),
          ],
        },
        [xs, ...series.map((s) => s.values)] as uPlot.AlignedData,
        plot,
      ),
  );
  return box;
}
