import { getMetricsFromIterator, type PromHistogramData, type PromMetrics } from "prom2javascript";

/**
 * A scrape of a Prometheus text exposition, parsed by a real parser (prom2javascript; parse-prometheus-text-format
 * merges the histograms of different label sets into one). `value(name, labels)` is the sample whose labels are
 * exactly those given (undefined when there is none); `histogram(name, labels)` its buckets, count and sum.
 */
export async function parseExposition(text: string) {
  const families: PromMetrics = await getMetricsFromIterator(text.split("\n")[Symbol.iterator]());
  const sample = (name: string, labels: Record<string, string> = {}) =>
    (families[name]?.data as { labels: Record<string, string> }[] | undefined)?.find((m) => {
      const keys = Object.keys(m.labels);
      return keys.length === Object.keys(labels).length && keys.every((k) => m.labels[k] === labels[k]);
    });
  return {
    names: Object.keys(families),
    type: (name: string) => families[name]?.type,
    value(name: string, labels?: Record<string, string>): number | undefined {
      return (sample(name, labels) as { value?: number } | undefined)?.value;
    },
    histogram(name: string, labels?: Record<string, string>): PromHistogramData | undefined {
      return sample(name, labels) as PromHistogramData | undefined;
    },
  };
}
