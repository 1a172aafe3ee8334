import { inWords } from "./format.ts";

/** The explorer's client of the public v2 API: same origin, each page view under one view token. */

export interface Envelope<T, M = unknown> {
  success: boolean;
  data: T;
  meta?: M;
  error?: { code: string; message: string };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds until a refused request may be retried (`Retry-After`), when the server said. */
    readonly retryAfter: number | null = null,
    /** The limit that was reached (`X-RateLimit-Limit` or the `RateLimit-Policy` quota). */
    readonly limit: number | null = null,
  ) {
    super(message);
  }

  /** What a person reads: a spent limit says when, in words; anything else the server's own message. */
  get sentence(): string {
    if (this.code !== "RATE_LIMITED") return `${this.message} (${this.code})`;
    const quota = this.limit ? ` (${this.limit} an hour from one address)` : "";
    const when =
      this.retryAfter !== null ? ` Try again in ${inWords(this.retryAfter)}.` : " Try again later.";
    return `This server's limit for anonymous use is reached${quota}.${when} An API key has a limit of its own.`;
  }
}

const root = document.getElementById("app");
/** The mount prefix of unirank (empty at the root of the host). */
export const BASE = root?.dataset.base ?? "";

let token: string | null = null;
let refused: ApiError | null = null;

const numberHeader = (response: Response, name: string): number | null => {
  const v = response.headers.get(name);
  return v !== null && /^[0-9]+$/.test(v.trim()) ? Number(v) : null;
};

const quotaOf = (response: Response): number | null => {
  const q = /;q=([0-9]+)/.exec(response.headers.get("RateLimit-Policy") ?? "")?.[1];
  return q ? Number(q) : numberHeader(response, "X-RateLimit-Limit");
};

async function errorOf(response: Response): Promise<ApiError> {
  let body: Envelope<unknown> | null = null;
  try {
    body = (await response.json()) as Envelope<unknown>;
  } catch {
    body = null;
  }
  return new ApiError(
    response.status,
    body?.error?.code ?? `HTTP_${response.status}`,
    body?.error?.message ?? response.statusText,
    numberHeader(response, "Retry-After"),
    quotaOf(response),
  );
}

/**
 * Starts a page view: asks for a view token (the one request a page view counts against the anonymous limit).
 * Without one (older server) calls still work and count one by one; a refused view ends the page with its reason.
 */
export async function beginView(): Promise<void> {
  token = null;
  refused = null;
  try {
    const response = await fetch(`${BASE}/api/v2/explorer/view`);
    if (response.status === 429) {
      refused = await errorOf(response);
      return;
    }
    const body = (await response.json()) as Envelope<{ token: string }>;
    if (body.success) token = body.data.token;
  } catch {
    token = null;
  }
}

export function url(path: string, query: Record<string, string | number | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== "") params.set(k, String(v));
  const qs = params.toString();
  return `${BASE}/api/v2${path}${qs ? `?${qs}` : ""}`;
}

export async function api<T, M = Record<string, unknown>>(
  path: string,
  query: Record<string, string | number | undefined> = {},
): Promise<{ data: T; meta: M }> {
  if (refused) throw refused;
  const headers: Record<string, string> = token ? { "X-Explorer-Token": token } : {};
  const response = await fetch(url(path, query), { headers });
  if (!response.ok) throw await errorOf(response);
  const body = (await response.json()) as Envelope<T, M>;
  if (!body.success)
    throw new ApiError(response.status, body.error?.code ?? "ERROR", body.error?.message ?? "");
  return { data: body.data, meta: body.meta as M };
}
