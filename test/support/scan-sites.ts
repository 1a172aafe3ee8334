import type { ScanFunction } from "../../lib/index.ts";

import { isoTimestamp } from "../../lib/time/format.ts";

/**
 * Loopback web sites for the scheduler's tests: `http://127.0.0.1:PORT/<domain>/` is that university's home
 * page. A domain can be held (its GET waits until released), and HEAD answers follow a per-domain pattern.
 */
export interface ScanSites {
  origin: string;
  url(domain: string): string;
  /** GETs received per domain. */
  gets: Map<string, number>;
  /** Makes the domain's GETs wait until `release(domain)`. */
  hold(domain: string): void;
  release(domain: string): void;
  /** The status of the n-th HEAD (0-based) of a domain; 200 when unset. */
  headPattern: Map<string, (n: number) => number>;
  heads: Map<string, number>;
  /** Resolves when `count` GETs of `domain` (default 1) have arrived (and are held, if held). */
  arrived(domain: string, count?: number): Promise<void>;
  stop(): void;
}

export function startScanSites(): ScanSites {
  const gets = new Map<string, number>();
  const heads = new Map<string, number>();
  const held = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  const waiting: { domain: string; count: number; resolve: () => void }[] = [];
  const headPattern = new Map<string, (n: number) => number>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const domain = new URL(request.url).pathname.split("/")[1] ?? "";
      if (request.method === "HEAD") {
        const n = heads.get(domain) ?? 0;
        heads.set(domain, n + 1);
        return new Response(null, { status: headPattern.get(domain)?.(n) ?? 200 });
      }
      gets.set(domain, (gets.get(domain) ?? 0) + 1);
      for (const w of waiting.splice(0)) {
        if ((gets.get(w.domain) ?? 0) >= w.count) w.resolve();
        else waiting.push(w);
      }
      const hold = held.get(domain);
      if (hold) await hold.promise;
      return new Response(`<html><head><title>${domain}</title></head><body>home</body></html>`, {
        headers: { "content-type": "text/html" },
      });
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    origin,
    url: (domain) => `${origin}/${domain}/`,
    gets,
    heads,
    headPattern,
    hold(domain) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      held.set(domain, { promise, resolve });
    },
    release(domain) {
      held.get(domain)?.resolve();
      held.delete(domain);
    },
    arrived(domain, count = 1) {
      if ((gets.get(domain) ?? 0) >= count) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ domain, count, resolve }));
    },
    stop() {
      for (const h of held.values()) h.resolve();
      server.stop(true);
    },
  };
}

/**
 * A small real scan of a fixture site: GET its home page; completed with `tech_seo_score` 100 when it has a
 * title, failed on an HTTP error. Every call is recorded with the uptime it was given.
 */
export function fixtureScan(
  sites: ScanSites,
  clock: () => Date,
  calls: { domain: string; availability: { answered: number; total: number } }[] = [],
): ScanFunction {
  return async (target, options, signal) => {
    calls.push({ domain: target.domain, availability: options.availability });
    const started_at = isoTimestamp(clock());
    const response = await fetch(sites.url(target.domain), { signal });
    const body = await response.text();
    if (!response.ok) {
      return {
        status: "failed",
        started_at,
        completed_at: isoTimestamp(clock()),
        failure_reason: `HTTP ${response.status}`,
        scores: {},
        evidence: undefined,
      };
    }
    return {
      status: "completed",
      started_at,
      completed_at: isoTimestamp(clock()),
      scores: { tech_seo_score: /<title>/.test(body) ? 100 : 0 },
      evidence: undefined,
    };
  };
}
