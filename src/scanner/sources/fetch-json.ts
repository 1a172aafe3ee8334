import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

/** How a source is asked: its own timeout and byte cap, the scan's signal and unirank's User-Agent. */
export interface SourceRequestOptions {
  userAgent: string;
  signal?: AbortSignal;
  timeoutMs: number;
  maxBytes: number;
}

export type Fetched<T> = { ok: true; value: T } | { ok: false; reason: string };

/** The body of `response` as text, refusing more than `maxBytes`. */
async function cappedText(response: Response, maxBytes: number): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/**
 * GETs JSON from a source and checks it against `schema`. Every failure (unreachable, timeout, HTTP error, too
 * large, not JSON, unexpected shape) is a one-line reason naming the source, never an exception.
 */
export async function fetchJson<T>(
  source: string,
  url: string,
  schema: TSchema,
  o: SourceRequestOptions,
): Promise<Fetched<T>> {
  const signals = [AbortSignal.timeout(o.timeoutMs)];
  if (o.signal) signals.push(o.signal);
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: "application/json", "user-agent": o.userAgent },
      signal: AbortSignal.any(signals),
      redirect: "follow",
    });
  } catch (error) {
    if (o.signal?.aborted) return { ok: false, reason: "the scan was aborted" };
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError" || name === "AbortError") {
      return { ok: false, reason: `${source} did not answer within ${o.timeoutMs} ms` };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `${source} is unreachable: ${message.split("\n")[0]}` };
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    return { ok: false, reason: `${source} answered HTTP ${response.status}` };
  }
  let text: string | null;
  try {
    text = await cappedText(response, o.maxBytes);
  } catch {
    return { ok: false, reason: `${source} broke off its answer` };
  }
  if (text === null) return { ok: false, reason: `${source} answered more than ${o.maxBytes} bytes` };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, reason: `${source} answered something that is not JSON` };
  }
  if (!Value.Check(schema, body)) {
    const first = Value.Errors(schema, body).First();
    const where = first ? ` (${first.path || "/"}: ${first.message})` : "";
    return { ok: false, reason: `${source} answered JSON of an unexpected shape${where}` };
  }
  return { ok: true, value: body as T };
}

/** Options every source takes. */
export interface SourceOptions {
  /** Base URL of the source's API (a mirror, or a loopback fixture in tests). */
  baseUrl?: string;
  /** Per request, ms (default 10 000). */
  timeoutMs?: number;
  /** Largest answer read, bytes (default 5 MB). */
  maxBytes?: number;
}

export const requestOptions = (
  o: SourceOptions,
  userAgent: string,
  signal?: AbortSignal,
): SourceRequestOptions => ({
  userAgent,
  signal,
  timeoutMs: o.timeoutMs ?? 10_000,
  maxBytes: o.maxBytes ?? 5 * 1024 * 1024,
});

/** `base` without trailing slashes. */
export const trimBase = (base: string) => base.replace(/\/+$/, "");
