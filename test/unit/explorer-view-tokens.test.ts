import { describe, expect, test } from "bun:test";
import { createViewTokens } from "../../src/http/view-tokens.ts";

const at = (ms: number) => new Date(Date.UTC(2026, 5, 30, 12) + ms);

describe("view tokens", () => {
  test("a token admits exactly `calls` calls, counting down, then none", () => {
    const tokens = createViewTokens({ calls: 3, ttlSeconds: 60 });
    const { token, calls, expires } = tokens.issue(at(0));
    expect(calls).toBe(3);
    expect(expires).toBe(at(60_000).getTime());
    expect([1, 2, 3, 4].map(() => tokens.admit(token, at(1000)))).toEqual([2, 1, 0, null]);
  });

  test("expires at exactly its lifetime; tokens are independent", () => {
    const tokens = createViewTokens({ calls: 2, ttlSeconds: 60 });
    const a = tokens.issue(at(0));
    const b = tokens.issue(at(0));
    expect(a.token).not.toBe(b.token);
    expect(tokens.admit(a.token, at(59_999))).toBe(1);
    expect(tokens.admit(a.token, at(60_000))).toBeNull();
    expect(tokens.admit(b.token, at(59_999))).toBe(1);
  });

  test("altered, truncated or foreign tokens admit nothing", () => {
    const secret = new Uint8Array(32).fill(7);
    const tokens = createViewTokens({ secret });
    const { token } = tokens.issue(at(0));
    const [id, expires, signature] = token.split(".");
    const later = `${id}.${Number(expires) + 1000}.${signature}`;
    for (const bad of [later, `${id}.${expires}`, `${token}x`, "", "a.b.c", `x${token}`]) {
      expect(tokens.admit(bad, at(1000))).toBeNull();
    }
    expect(createViewTokens().admit(token, at(1000))).toBeNull();
    // The same secret (another process configured alike) accepts it.
    expect(createViewTokens({ secret }).admit(token, at(1000))).toBe(23);
  });
});
