import { describe, expect, test } from "bun:test";
import { jsonResponse } from "../../src/http/respond.ts";

// Answers of one kind start from one template of headers (src/http/respond.ts): each must still carry its own
// fields only, and the template what its kind says.
const CONSTANT = Object.freeze({ "Access-Control-Allow-Origin": "*" });
const get = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });
const big = JSON.stringify({ text: "x".repeat(2000) });

describe("response headers from a template", () => {
  test("an answer's own headers stay its own, and the kind's are on every answer", () => {
    const first = jsonResponse(get("http://x/a", { "Accept-Encoding": "gzip" }), big, {
      status: 200,
      cache: "public",
      constant: CONSTANT,
      headers: { "X-Request-Id": "one", Link: "</next>" },
    });
    const second = jsonResponse(get("http://x/a"), big, {
      status: 200,
      cache: "public",
      constant: CONSTANT,
      headers: { "X-Request-Id": "two" },
    });
    expect(first.headers.get("X-Request-Id")).toBe("one");
    expect(first.headers.get("Link")).toBe("</next>");
    expect(first.headers.get("Content-Encoding")).toBe("gzip");
    expect(second.headers.get("X-Request-Id")).toBe("two");
    expect(second.headers.get("Link")).toBeNull();
    expect(second.headers.get("Content-Encoding")).toBeNull();
    for (const r of [first, second]) {
      expect(r.headers.get("Access-Control-Allow-Origin")).toBe("*");
      expect(r.headers.get("Cache-Control")).toBe("public, max-age=60");
      expect(r.headers.get("Vary")).toBe("Accept-Encoding");
      expect(r.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(r.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    }
    expect(first.headers.get("ETag")).toBe(`${second.headers.get("ETag")?.slice(0, -1)}-gzip"`);
  });

  test("caching, type and Vary make templates of their own; an answer's own fields win", async () => {
    const stored = jsonResponse(get("http://x/h"), "{}", {
      status: 200,
      cache: "no-store",
      constant: CONSTANT,
    });
    const csv = jsonResponse(get("http://x/c"), "a\n", {
      status: 200,
      cache: "public",
      constant: CONSTANT,
      contentType: "text/csv; charset=utf-8",
      vary: "Accept, Accept-Encoding",
      headers: { "Access-Control-Allow-Origin": "https://example.org" },
    });
    const plain = jsonResponse(get("http://x/p"), "{}", { status: 200, cache: "public", constant: CONSTANT });
    expect(stored.headers.get("Cache-Control")).toBe("no-store");
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("Vary")).toBe("Accept, Accept-Encoding");
    expect(csv.headers.get("Access-Control-Allow-Origin")).toBe("https://example.org");
    expect(plain.headers.get("Cache-Control")).toBe("public, max-age=60");
    expect(plain.headers.get("Vary")).toBe("Accept-Encoding");
    expect(plain.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(await csv.text()).toBe("a\n");
  });

  test("a 304 and a HEAD answer carry the answer's own fields too", () => {
    const tag =
      jsonResponse(get("http://x/a"), "{}", { status: 200, cache: "public" }).headers.get("ETag") ?? "";
    const notModified = jsonResponse(get("http://x/a", { "If-None-Match": tag }), "{}", {
      status: 200,
      cache: "public",
      headers: { "X-Request-Id": "three" },
    });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("X-Request-Id")).toBe("three");
    expect(notModified.headers.get("ETag")).toBe(tag);
    const head = jsonResponse(new Request("http://x/a", { method: "HEAD" }), '{"é":1}', {
      status: 200,
      cache: "public",
      headers: { "X-Request-Id": "four" },
    });
    expect(head.headers.get("Content-Length")).toBe("8");
    expect(head.headers.get("X-Request-Id")).toBe("four");
  });
});
