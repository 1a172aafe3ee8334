import type { AvailabilityProbe, ProbeResult } from "../../lib/index.ts";

/**
 * The availability probe: a HEAD of the home page (`https://<domain>/` unless `url` says otherwise), redirects
 * not followed. Answered means an HTTP status below 500 within the timeout.
 */
export function availabilityProbe(
  options: { timeoutMs?: number; url?: (domain: string) => string } = {},
): AvailabilityProbe {
  const url = options.url ?? ((domain: string) => `https://${domain}/`);
  const timeoutMs = options.timeoutMs ?? 10_000;
  return async (domain, signal): Promise<ProbeResult> => {
    try {
      const response = await fetch(url(domain), {
        method: "HEAD",
        redirect: "manual",
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      });
      await response.body?.cancel();
      const answered = response.status < 500;
      return {
        answered,
        status_code: response.status,
        ...(answered ? {} : { error: `HTTP ${response.status}` }),
      };
    } catch (e) {
      const name = e instanceof Error ? e.name : "";
      const error =
        name === "TimeoutError" ? `no answer in ${timeoutMs} ms` : e instanceof Error ? e.message : String(e);
      return { answered: false, error };
    }
  };
}
