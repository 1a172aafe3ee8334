import { expect, test } from "bun:test";
import {
  API_KEY_PREFIX,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
} from "../../lib/access/api-key-format.ts";
import { signatureBase } from "../../lib/access/request-signature.ts";
import {
  authenticate,
  createKey,
  isUnirankError,
  listKeys,
  revokeKey,
  signRequest,
} from "../../lib/index.ts";
import { openSqlite } from "../../src/db/open.ts";
import { describeEachDatabase } from "../support/databases.ts";

const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return "OK";
  } catch (e) {
    return isUnirankError(e) ? e.code : `unexpected: ${String(e)}`;
  }
};

test("keys are prefixed, checksummed and random", () => {
  const keys = new Set(Array.from({ length: 200 }, generateApiKey));
  expect(keys.size).toBe(200);
  for (const k of keys) {
    expect(k.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(k).toMatch(/^urk_[0-9A-Za-z]{36}$/);
    expect(isWellFormedApiKey(k)).toBe(true);
  }
  const key = generateApiKey();
  // Every single-character typo is caught by the checksum (the alphabet is base62).
  let caught = 0;
  for (let i = 4; i < key.length; i++) {
    const c = key[i] === "a" ? "b" : "a";
    if (!isWellFormedApiKey(key.slice(0, i) + c + key.slice(i + 1))) caught++;
  }
  expect(caught).toBe(key.length - 4);
  expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
  expect(isWellFormedApiKey(`${key}x`)).toBe(false);
  expect(isWellFormedApiKey("x".repeat(10_240))).toBe(false);
});

test("a malformed key is rejected without a database read", async () => {
  const opened = openSqlite(":memory:");
  await opened.close(); // any query on it now throws
  const key = generateApiKey();
  const altered = `${key.slice(0, -1)}${key.endsWith("Z") ? "Y" : "Z"}`; // the checksum no longer matches
  expect(await codeOf(authenticate(opened.db, altered))).toBe("INVALID_API_KEY");
  expect(await codeOf(authenticate(opened.db, "k".repeat(10_240)))).toBe("INVALID_API_KEY");
  // A well-formed key does reach the database (which fails here): proof the check above did not.
  expect(await codeOf(authenticate(opened.db, generateApiKey()))).toStartWith("unexpected");
});

describeEachDatabase("API keys", (get) => {
  test("create, authenticate, list, revoke", async () => {
    const { db } = get();
    const a = await createKey(db, { name: "alpha" });
    const b = await createKey(db, { name: "beta", rateLimit: 10, requireSignature: true });
    expect(a.rate_limit).toBe(5000);
    expect(a.require_signature).toBe(false);
    expect(a.signing_secret).toBeNull();
    expect(b.signing_secret).toMatch(/^urs_[0-9A-Za-z]{40}$/);
    expect(b.rate_limit).toBe(10);

    const authA = await authenticate(db, a.key);
    expect(authA.id).toBe(a.id);
    expect(authA.rate_limit).toBe(5000);
    const authB = await authenticate(db, b.key);
    expect(authB.require_signature).toBe(true);
    expect(authB.signing_secret).toBe(b.signing_secret);

    const listed = await listKeys(db);
    const names = listed.map((k) => k.name);
    expect(names).toContain("alpha");
    expect(names).toContain("beta");
    const text = JSON.stringify(listed);
    expect(text).not.toContain(a.key);
    expect(text).not.toContain(b.key);
    expect(text).not.toContain(b.signing_secret ?? "-");
    expect(listed.find((k) => k.id === a.id)?.prefix).toBe(a.key.slice(0, 10));

    // Only the hash is stored.
    const rows = await db
      .selectFrom("api_keys" as never)
      .selectAll()
      .execute();
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(a.key);
    expect(stored).toContain(hashApiKey(a.key));

    const revoked = await revokeKey(db, a.id);
    expect(revoked.revoked_at).not.toBeNull();
    expect(await codeOf(authenticate(db, a.key))).toBe("INVALID_API_KEY");
    expect(await codeOf(authenticate(db, b.key))).toBe("OK");
    // Revoking again keeps the first time.
    expect((await revokeKey(db, a.id)).revoked_at).toBe(revoked.revoked_at);
    expect(await codeOf(revokeKey(db, 999_999))).toBe("NOT_FOUND");
    // An unknown but well-formed key.
    expect(await codeOf(authenticate(db, generateApiKey()))).toBe("INVALID_API_KEY");
  });

  test("names and limits are validated", async () => {
    const { db } = get();
    expect(await codeOf(createKey(db, { name: " " }))).toBe("INVALID_PARAMETER");
    expect(await codeOf(createKey(db, { name: "x", rateLimit: -1 }))).toBe("INVALID_PARAMETER");
    expect(await codeOf(createKey(db, { name: "x", rateLimit: 1.5 }))).toBe("INVALID_PARAMETER");
    expect((await createKey(db, { name: "unlimited", rateLimit: 0 })).rate_limit).toBe(0);
  });
});

test("the signature example in docs/access-control.md is what the server computes", () => {
  expect(signRequest("urs_example", 1772366400, "GET", "/api/v2/universities?limit=5")).toBe(
    "sha256=67e225dba40c3d9c82995ad6275c7c0e22310aa684a47a95e9a1ccfcaa30e478",
  );
  expect(signatureBase("1772366400", "get", "/api/v2/universities?limit=5")).toBe(
    "1772366400\nGET\n/api/v2/universities?limit=5",
  );
});
