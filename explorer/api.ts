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
  ) {
    super(message);
  }
}

const root = document.getElementById("app");
/** The mount prefix of unirank (empty at the root of the host). */
export const BASE = root?.dataset.base ?? "";

let token: string | null = null;

/**
 * Starts a page view: asks for a view token (the one request a page view counts against the anonymous limit).
 * Without one (limit reached, older server) calls still work and count one by one.
 */
export async function beginView(): Promise<void> {
  token = null;
  try {
    const body = (await (await fetch(`${BASE}/api/v2/explorer/view`)).json()) as Envelope<{ token: string }>;
    if (body.success) token = body.data.token;
  } catch {
    token = null;
  }
}

export async function api<T, M = Record<string, unknown>>(
  path: string,
  query: Record<string, string | number | undefined> = {},
): Promise<{ data: T; meta: M }> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== "") params.set(k, String(v));
  const qs = params.toString();
  const headers: Record<string, string> = token ? { "X-Explorer-Token": token } : {};
  const response = await fetch(`${BASE}/api/v2${path}${qs ? `?${qs}` : ""}`, { headers });
  const body = (await response.json()) as Envelope<T, M>;
  if (!body.success) {
    throw new ApiError(
      response.status,
      body.error?.code ?? "ERROR",
      body.error?.message ?? response.statusText,
    );
  }
  return { data: body.data, meta: body.meta as M };
}
