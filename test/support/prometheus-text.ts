import { getMetricsFromIterator, type PromHistogramData, type PromMetrics } from "prom2javascript";

/**
 * A scrape of a Prometheus text exposition, parsed by a real parser (prom2javascript; parse-prometheus-text-format
 * merges the histograms of different label sets into one). `value(name, labels)` is the sample whose labels are
 * exactly those given (undefined when there is none); `histogram(name, labels)` its buckets, count and sum.
 */
export async function parseExposition(text: string) {
  // The format allows NaN and -Inf as values (prom-client's event-loop lag is NaN before its first sample);
  // prom2javascript reads neither, so such samples are left out of its input (unlabelled ones answered by `value`).
  const special = new Map<string, number>();
  const lines = text.split("\n").filter((line) => {
    const m = /^(\w+)(\{.*\})?\s+(NaN|-Inf)(\s+-?\d+)?\s*$/.exec(line);
    if (m && m[2] === undefined)
      special.set(m[1] as string, m[3] === "NaN" ? Number.NaN : Number.NEGATIVE_INFINITY);
    return m === null;
  });
  const families: PromMetrics = await getMetricsFromIterator(lines[Symbol.iterator]());
  const sample = (name: string, labels: Record<string, string> = {}) =>
    (families[name]?.data as { labels: Record<string, string> }[] | undefined)?.find((m) => {
      const keys = Object.keys(m.labels);
      return keys.length === Object.keys(labels).length && keys.every((k) => m.labels[k] === labels[k]);
    });
  return {
    names: Object.keys(families),
    type: (name: string) => families[name]?.type,
    value(name: string, labels?: Record<string, string>): number | undefined {
      const found = (sample(name, labels) as { value?: number } | undefined)?.value;
      if (found !== undefined || (labels !== undefined && Object.keys(labels).length > 0)) return found;
      return special.get(name);
    },
    histogram(name: string, labels?: Record<string, string>): PromHistogramData | undefined {
      return sample(name, labels) as PromHistogramData | undefined;
    },
  };
}
