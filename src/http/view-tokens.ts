import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const base64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url");
const sameText = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Explorer view tokens: one page view of the explorer costs one anonymous request (the request that issues the
 * token) and its token then admits at most `calls` further API calls within `ttlSeconds`, the most one page
 * makes. Tokens are HMAC-signed with a secret of this process and their uses are counted in memory, so a token
 * works on the process that issued it; elsewhere, or once used up or expired, calls simply count as usual.
 */
export interface ViewTokenSettings {
  /** Calls one token admits. Default 24 (a comparison of ten universities makes 21). */
  calls?: number;
  /** Lifetime in seconds. Default 120. */
  ttlSeconds?: number;
  /** HMAC key; default 32 random bytes. */
  secret?: Uint8Array;
}

export interface IssuedViewToken {
  token: string;
  /** Milliseconds since the epoch. */
  expires: number;
  calls: number;
}

export interface ViewTokens {
  issue(now: Date): IssuedViewToken;
  /** Counts one call on `token`: the calls it still admits after this one, or null when it admits none. */
  admit(token: string, now: Date): number | null;
}

export const DEFAULT_VIEW_CALLS = 24;
export const DEFAULT_VIEW_TTL_SECONDS = 120;

export function createViewTokens(settings: ViewTokenSettings = {}): ViewTokens {
  const calls = settings.calls ?? DEFAULT_VIEW_CALLS;
  const ttl = (settings.ttlSeconds ?? DEFAULT_VIEW_TTL_SECONDS) * 1000;
  const secret = settings.secret ?? randomBytes(32);
  const used = new Map<string, { expires: number; count: number }>();
  let serial = 0;
  const sign = (body: string) => createHmac("sha256", secret).update(body).digest("base64url");
  const sweep = (now: number) => {
    for (const [id, entry] of used) if (entry.expires <= now) used.delete(id);
  };
  return {
    issue(now) {
      sweep(now.getTime());
      const expires = now.getTime() + ttl;
      const body = `${base64url(randomBytes(9))}${(serial++).toString(36)}.${expires}`;
      return { token: `${body}.${sign(body)}`, expires, calls };
    },
    admit(token, now) {
      const parts = token.split(".");
      if (parts.length !== 3) return null;
      const [id = "", expiresText = "", signature = ""] = parts;
      const body = `${id}.${expiresText}`;
      if (!sameText(signature, sign(body))) return null;
      const expires = Number(expiresText);
      if (!Number.isFinite(expires) || expires <= now.getTime()) return null;
      const entry = used.get(id) ?? { expires, count: 0 };
      if (entry.count >= calls) return null;
      entry.count += 1;
      used.set(id, entry);
      return calls - entry.count;
    },
  };
}
