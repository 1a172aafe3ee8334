import { expect, test } from "bun:test";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { hmacSha256, hmacSha256Hex, sha256, sha256Hex, toHex } from "../../lib/text/sha256.ts";

test("sha256 matches node:crypto at every length around the block boundaries, for text and bytes", () => {
  expect(toHex(sha256(""))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  expect(toHex(sha256("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  for (let length = 0; length <= 200; length++) {
    const bytes = randomBytes(length);
    expect(toHex(sha256(bytes)), `length ${length}`).toBe(createHash("sha256").update(bytes).digest("hex"));
  }
  const text = "Universität Zürich — 東京大学 ✓".repeat(7);
  expect(toHex(sha256(text))).toBe(createHash("sha256").update(text).digest("hex"));
});

test("hmacSha256 matches node:crypto for short, block-sized and long keys", () => {
  for (const keyLength of [0, 1, 20, 63, 64, 65, 131]) {
    const key = randomBytes(keyLength);
    for (const message of ["", "1772366400\nGET\n/api/v2/universities?limit=5", "x".repeat(300)]) {
      expect(toHex(hmacSha256(key, message))).toBe(createHmac("sha256", key).update(message).digest("hex"));
    }
  }
  expect(toHex(hmacSha256("urs_secret", "ü"))).toBe(
    createHmac("sha256", "urs_secret").update("ü").digest("hex"),
  );
});

test("the hex helpers give the same digests natively as the plain implementation", () => {
  for (const text of ["", "urk_0123456789", "ü".repeat(100), "Universität Zürich — 東京大学 ✓".repeat(9)]) {
    expect(sha256Hex(text)).toBe(toHex(sha256(text)));
    expect(sha256Hex(new TextEncoder().encode(text))).toBe(toHex(sha256(text)));
    expect(hmacSha256Hex("urs_key", text)).toBe(toHex(hmacSha256("urs_key", text)));
  }
});
