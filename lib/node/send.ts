import type { AttemptOutcome, ClaimedDelivery } from "../webhooks/claim.ts";
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signWebhookBody } from "../webhooks/receiver.ts";
import { type GuardOptions, refuseReceiverUrl } from "./address-guard.ts";

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface SendOptions extends GuardOptions {
  fetch?: FetchLike;
  /** Per attempt: connecting, sending and the response headers (default 10 s). */
  timeoutMs?: number;
  /** Aborts the attempt when the worker stops. */
  signal?: AbortSignal;
  clock?: () => Date;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** Reads at most `max` bytes of a body (for the attempt log), then lets the rest go. */
async function snippet(response: Response, max = 300): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done || !value) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // a body cut short is fine here
  } finally {
    reader.cancel().catch(() => {});
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  const text = new TextDecoder().decode(all.subarray(0, max));
  return text.replace(/\s+/g, " ").trim();
}

/**
 * One attempt: checks the receiver's address, then POSTs the stored body with its signature. 2xx is success;
 * redirects are not followed (a 3xx is a failure); anything else, a timeout or a network error is a failure.
 */
export async function sendDelivery(
  delivery: ClaimedDelivery,
  options: SendOptions = {},
): Promise<AttemptOutcome> {
  const clock = options.clock ?? (() => new Date());
  const startedAt = clock();
  const t0 = performance.now();
  const done = (o: Omit<AttemptOutcome, "startedAt" | "durationMs">): AttemptOutcome => ({
    ...o,
    startedAt,
    durationMs: performance.now() - t0,
  });
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  try {
    const refused = await refuseReceiverUrl(delivery.url, options);
    if (refused) return done({ ok: false, permanent: true, status: null, error: refused });
  } catch (e) {
    return done({ ok: false, status: null, error: (e as Error).message });
  }
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  try {
    const response = await (options.fetch ?? fetch)(delivery.url, {
      method: "POST",
      redirect: "manual",
      signal,
      headers: {
        "content-type": "application/json",
        "user-agent": "unirank-webhooks",
        [SIGNATURE_HEADER]: await signWebhookBody(delivery.secret, delivery.payload),
        [EVENT_HEADER]: delivery.event,
        [DELIVERY_HEADER]: delivery.uuid,
      },
      body: delivery.payload,
    });
    const status = response.status;
    if (status >= 200 && status < 300) {
      response.body?.cancel().catch(() => {});
      return done({ ok: true, status, error: null });
    }
    if (status >= 300 && status < 400) {
      response.body?.cancel().catch(() => {});
      const to = response.headers.get("location");
      return done({ ok: false, status, error: `redirect${to ? ` to ${to}` : ""} not followed` });
    }
    const text = await snippet(response);
    return done({ ok: false, status, error: `HTTP ${status}${text ? `: ${text}` : ""}` });
  } catch (e) {
    if (options.signal?.aborted)
      return done({ ok: false, aborted: true, status: null, error: "aborted: worker stopped" });
    if (timeout.aborted) return done({ ok: false, status: null, error: `timeout after ${timeoutMs} ms` });
    const err = e as Error & { code?: string };
    return done({ ok: false, status: null, error: err.code ? `${err.code}: ${err.message}` : err.message });
  }
}
