import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import {
  type DB,
  deliveryBacklog,
  type Health,
  parseTimestamp,
  type SchedulerEvent,
  type SchedulerState,
} from "../lib/index.ts";
import type { PassSummary } from "../lib/node/index.ts";
import type { ResponseCache } from "./http/cache.ts";
import type { RequestObserver, RequestRecord } from "./http/observer.ts";

/**
 * unirank's Prometheus metrics (prom-client, a registry of their own): the request path records into them through
 * the app's `RequestObserver`, the scheduler through its events; the rest is read when scraped (cache counters,
 * scheduler backlog, webhook backlog, health, process). Names follow Prometheus' conventions (`_total`,
 * `_seconds`); docs/operations.md lists them.
 */

/** What is read at scrape time, given once the server is built. */
export interface MetricsSources {
  db: DB;
  version: string;
  cache: ResponseCache | false;
  /** The server's health (the checks of /health). */
  health: () => Promise<Health>;
  scanner?: () => SchedulerState;
  webhooks?: () => PassSummary;
  /** Requests the server has taken and not answered yet. */
  inFlight?: () => number;
  clock?: () => Date;
}

const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const SCAN_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600];

/** A counter that follows a running total kept elsewhere: each scrape adds what the total grew by. */
function followingCounter(
  registry: Registry,
  name: string,
  help: string,
  labelNames: string[],
  totals: () => [Record<string, string>, number][],
): void {
  const seen = new Map<string, number>();
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      for (const [labels, total] of totals()) {
        const key = JSON.stringify(labels);
        const grown = total - (seen.get(key) ?? 0);
        if (grown > 0) this.inc(labels, grown);
        else this.inc(labels, 0);
        seen.set(key, Math.max(total, seen.get(key) ?? 0));
      }
    },
  });
}

/** One (method, route, status) of the answered requests: how many, and their durations in REQUEST_BUCKETS. */
interface Tally {
  method: string;
  route: string;
  status: string;
  count: number;
  sum: number;
  /** Per bucket (not cumulative); the last one is +Inf. */
  buckets: number[];
}

/**
 * The request path's fast path for metrics: a count, a sum and a bucket per (method, route, status) kept as plain
 * numbers, one Map lookup per request, formatted by prom-client's registry when scraped. prom-client's own
 * labelled `inc`/`observe` hash their labels on every call (the cost is in docs/performance.md).
 */
class RequestTallies {
  readonly #byKey = new Map<string, Tally>();

  record(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let t = this.#byKey.get(key);
    if (t === undefined) {
      t = {
        method,
        route,
        status: String(status),
        count: 0,
        sum: 0,
        buckets: new Array(REQUEST_BUCKETS.length + 1).fill(0),
      };
      this.#byKey.set(key, t);
    }
    t.count++;
    t.sum += seconds;
    let i = 0;
    while (i < REQUEST_BUCKETS.length && seconds > (REQUEST_BUCKETS[i] as number)) i++;
    (t.buckets[i] as number)++;
  }

  /** `unirank_http_requests_total`: one sample per (method, route, status). */
  counter(name: string, help: string) {
    return {
      name,
      help,
      type: "counter",
      aggregator: "sum",
      get: async () => ({
        name,
        help,
        type: "counter",
        aggregator: "sum",
        values: [...this.#byKey.values()].map((t) => ({
          labels: { method: t.method, route: t.route, status: t.status },
          value: t.count,
        })),
      }),
    };
  }

  /** `unirank_http_request_duration_seconds`: by (method, route), the statuses summed. */
  histogram(name: string, help: string) {
    const get = async () => {
      const byRoute = new Map<
        string,
        { method: string; route: string; count: number; sum: number; buckets: number[] }
      >();
      for (const t of this.#byKey.values()) {
        const key = `${t.method} ${t.route}`;
        let h = byRoute.get(key);
        if (h === undefined) {
          h = {
            method: t.method,
            route: t.route,
            count: 0,
            sum: 0,
            buckets: new Array(t.buckets.length).fill(0),
          };
          byRoute.set(key, h);
        }
        h.count += t.count;
        h.sum += t.sum;
        for (let i = 0; i < t.buckets.length; i++) (h.buckets[i] as number) += t.buckets[i] as number;
      }
      const values: { metricName: string; labels: Record<string, string | number>; value: number }[] = [];
      for (const h of byRoute.values()) {
        const labels = { method: h.method, route: h.route };
        let cumulative = 0;
        for (let i = 0; i < h.buckets.length; i++) {
          cumulative += h.buckets[i] as number;
          const le = i < REQUEST_BUCKETS.length ? (REQUEST_BUCKETS[i] as number) : "+Inf";
          values.push({ metricName: `${name}_bucket`, labels: { ...labels, le }, value: cumulative });
        }
        values.push({ metricName: `${name}_sum`, labels, value: h.sum });
        values.push({ metricName: `${name}_count`, labels, value: h.count });
      }
      return { name, help, type: "histogram", aggregator: "sum", values };
    };
    return { name, help, type: "histogram", aggregator: "sum", get };
  }
}

export class ServerMetrics implements RequestObserver {
  readonly registry = new Registry();
  readonly #requests = new RequestTallies();
  readonly #limited: Counter<"policy">;
  readonly #scans: Counter<"outcome">;
  readonly #scanDuration: Histogram<"outcome">;
  readonly #takeovers: Counter;
  #sources: MetricsSources | null = null;

  constructor() {
    const registers = [this.registry];
    // Custom metric objects of prom-client's shape: the registry formats them like its own.
    this.registry.registerMetric(
      this.#requests.counter(
        "unirank_http_requests_total",
        "HTTP requests answered, by method, route template and status",
      ) as never,
    );
    this.registry.registerMetric(
      this.#requests.histogram(
        "unirank_http_request_duration_seconds",
        "Time from a request's arrival to its response, by method and route template",
      ) as never,
    );
    this.#limited = new Counter({
      name: "unirank_rate_limit_rejections_total",
      help: "Requests refused with 429 by a rate limit, by policy (per-ip, per-key)",
      labelNames: ["policy"],
      registers,
    });
    this.#scans = new Counter({
      name: "unirank_scans_total",
      help: "Scans this server ran and stored, by outcome (completed, failed)",
      labelNames: ["outcome"],
      registers,
    });
    this.#scanDuration = new Histogram({
      name: "unirank_scan_duration_seconds",
      help: "Duration of the scans this server ran, by outcome",
      labelNames: ["outcome"],
      buckets: SCAN_BUCKETS,
      registers,
    });
    this.#takeovers = new Counter({
      name: "unirank_scan_lease_takeovers_total",
      help: "Claims taken over from a server whose lease ran out (its attempt stored as failed)",
      registers,
    });
    // Both outcomes exist from the start, so a rate over them is defined before the first scan.
    for (const outcome of ["completed", "failed"]) this.#scans.inc({ outcome }, 0);
    this.#readAtScrape();
    collectDefaultMetrics({ register: this.registry });
  }

  /** Tells the metrics where to read what they read at scrape time. */
  attach(sources: MetricsSources): void {
    this.#sources = sources;
  }

  observe(record: RequestRecord): void {
    this.#requests.record(record.method, record.route ?? "unmatched", record.status, record.seconds);
    if (record.rateLimited !== null) this.#limited.inc({ policy: record.rateLimited });
  }

  /** The scheduler's events (`SchedulerOptions.observe`). */
  readonly scheduler = (event: SchedulerEvent): void => {
    if (event.type === "takeover") this.#takeovers.inc();
    else {
      this.#scans.inc({ outcome: event.status });
      this.#scanDuration.observe({ outcome: event.status }, event.seconds);
    }
  };

  /**
   * The Prometheus text exposition. prom-client writes a not-a-number value as `Nan` (the event-loop lag's mean
   * before it has a sample); the format spells it `NaN`, which strict parsers require.
   */
  async render(): Promise<string> {
    return (await this.registry.metrics()).replace(/ Nan$/gm, " NaN");
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  #readAtScrape(): void {
    const registers = [this.registry];
    const sources = () => this.#sources;
    new Gauge({
      name: "unirank_build_info",
      help: "Always 1; the running version as a label",
      labelNames: ["version"],
      registers,
      collect() {
        const s = sources();
        if (s) this.set({ version: s.version }, 1);
      },
    });
    const cache = () => {
      const c = sources()?.cache;
      return c ? c : null;
    };
    followingCounter(
      this.registry,
      "unirank_response_cache_hits_total",
      "Answers served from the response cache",
      [],
      () => [[{}, cache()?.hits ?? 0]],
    );
    followingCounter(
      this.registry,
      "unirank_response_cache_misses_total",
      "Cacheable requests the response cache did not hold (computed, or joined a computation under way)",
      [],
      () => [[{}, cache()?.misses ?? 0]],
    );
    new Gauge({
      name: "unirank_response_cache_entries",
      help: "Answers the response cache holds",
      registers,
      collect() {
        this.set(cache()?.size ?? 0);
      },
    });
    new Gauge({
      name: "unirank_http_requests_in_flight",
      help: "Requests the API server has taken and not answered yet",
      registers,
      collect() {
        this.set(sources()?.inFlight?.() ?? 0);
      },
    });
    new Gauge({
      name: "unirank_scan_backlog",
      help: "Universities due for a scan and not claimed yet (as of the scheduler's last look)",
      registers,
      collect() {
        this.set(sources()?.scanner?.().backlog ?? 0);
      },
    });
    new Gauge({
      name: "unirank_scans_running",
      help: "Scans this server is running now",
      registers,
      collect() {
        this.set(sources()?.scanner?.().running ?? 0);
      },
    });
    followingCounter(
      this.registry,
      "unirank_webhook_attempts_total",
      "Webhook delivery attempts this server made, by result (delivered, retry, failed, released)",
      ["result"],
      () => {
        const s = sources()?.webhooks?.();
        if (!s) return [];
        return [
          [{ result: "delivered" }, s.delivered],
          [{ result: "retry" }, s.retrying],
          [{ result: "failed" }, s.failed],
          [{ result: "released" }, s.released],
        ];
      },
    );
    // One read of the database per scrape for every gauge below (prom-client collects metrics concurrently).
    let reading: Promise<Snapshot | null> | null = null;
    const snapshot = (): Promise<Snapshot | null> => {
      reading ??= readSnapshot(sources()).finally(() => {
        reading = null;
      });
      return reading;
    };
    new Gauge({
      name: "unirank_webhook_deliveries",
      help: "Webhook deliveries still to send (pending) and given up (failed), in the database",
      labelNames: ["status"],
      registers,
      async collect() {
        const backlog = (await snapshot())?.backlog;
        if (backlog) for (const status of STATUSES) this.set({ status }, backlog[status].count);
      },
    });
    new Gauge({
      name: "unirank_webhook_oldest_delivery_age_seconds",
      help: "Age of the oldest pending and of the oldest failed webhook delivery (0 when there is none)",
      labelNames: ["status"],
      registers,
      async collect() {
        const s = await snapshot();
        if (!s?.backlog) return;
        for (const status of STATUSES) {
          const oldest = s.backlog[status].oldest;
          const at = oldest === null ? null : parseTimestamp(oldest);
          this.set({ status }, at ? Math.max(0, (s.now - at.getTime()) / 1000) : 0);
        }
      },
    });
    new Gauge({
      name: "unirank_database_up",
      help: "1 when the database answers a query and its storage reads back (the database check of /health)",
      registers,
      async collect() {
        const s = await snapshot();
        if (s) this.set(s.health.checks.database.status === "ok" ? 1 : 0);
      },
    });
    new Gauge({
      name: "unirank_database_check_seconds",
      help: "Duration of the database check's query",
      registers,
      async collect() {
        const ms = (await snapshot())?.health.checks.database.latency_ms;
        if (ms !== undefined) this.set(ms / 1000);
      },
    });
    new Gauge({
      name: "unirank_health_check_ok",
      help: "1 when a check of /health is ok, 0 when it warns or fails",
      labelNames: ["check"],
      registers,
      async collect() {
        const s = await snapshot();
        if (!s) return;
        for (const [check, result] of Object.entries(s.health.checks))
          this.set({ check }, result.status === "ok" ? 1 : 0);
      },
    });
  }
}

const STATUSES = ["pending", "failed"] as const;

interface Snapshot {
  now: number;
  health: Health;
  /** null when the database could not be read. */
  backlog: Awaited<ReturnType<typeof deliveryBacklog>> | null;
}

async function readSnapshot(s: MetricsSources | null): Promise<Snapshot | null> {
  if (!s) return null;
  const [health, backlog] = await Promise.all([s.health(), deliveryBacklog(s.db).catch(() => null)]);
  return { now: (s.clock ?? (() => new Date()))().getTime(), health, backlog };
}

/** Serves `/metrics` (and nothing else) on its own address, apart from the API. */
export function serveMetrics(metrics: ServerMetrics, listen: { host: string; port: number }) {
  const server = Bun.serve({
    hostname: listen.host,
    port: listen.port,
    async fetch(request) {
      const { pathname } = new URL(request.url);
      if (pathname !== "/metrics")
        return new Response("Not found: metrics are at /metrics\n", { status: 404 });
      if (request.method !== "GET" && request.method !== "HEAD")
        return new Response(null, { status: 405, headers: { Allow: "GET, HEAD" } });
      const body = await metrics.render();
      return new Response(request.method === "HEAD" ? null : body, {
        headers: {
          "Content-Type": metrics.contentType,
          "Cache-Control": "no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    },
  });
  const host = listen.host.includes(":") ? `[${listen.host}]` : listen.host;
  return { url: `http://${host}:${server.port}/metrics`, stop: () => server.stop(true) };
}
