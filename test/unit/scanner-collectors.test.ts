import { describe, expect, test } from "bun:test";
import { parseAge } from "../../src/cli/scan.ts";
import { ChunkedEnd, dechunk } from "../../src/scanner/chunked-body.ts";
import { mtaStsMode } from "../../src/scanner/collect.ts";
import { HostQueue } from "../../src/scanner/host-queue.ts";
import { parsePage } from "../../src/scanner/html.ts";
import { parseResponse } from "../../src/scanner/http-client.ts";
import { parseResolver } from "../../src/scanner/resolver-address.ts";
import { isRobotsTxt, sitemapKind } from "../../src/scanner/well-known-files.ts";
import { manualTimer } from "../support/manual-timer.ts";

describe("HostQueue", () => {
  test("one request at a time per host, with the pause between them; other hosts run alongside", async () => {
    const timer = manualTimer();
    const q = new HostQueue(50, timer);
    const starts: Record<string, number> = {};
    let running = 0;
    let most = 0;
    const task = (name: string) => async () => {
      running++;
      most = Math.max(most, running);
      starts[name] = timer.now();
      await timer.sleep(10);
      running--;
      return name;
    };
    const all = Promise.all([
      q.run("u.test", task("a")),
      q.run("U.test", task("b")),
      q.run("u.test", task("c")),
      q.run("v.test", task("d")),
      q.run("w.test", task("e")),
    ]);
    await timer.run();
    expect(await all).toEqual(["a", "b", "c", "d", "e"]);
    // Tasks of 10 ms: one host waits 50 ms after each end; the other hosts start at once.
    expect(starts).toEqual({ a: 0, b: 60, c: 120, d: 0, e: 0 });
    expect(most).toBe(3);
  });
  test("a failing task does not block the next", async () => {
    const q = new HostQueue(0);
    await expect(q.run("u.test", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await q.run("u.test", async () => 1)).toBe(1);
  });
});

describe("parsers", () => {
  test("resolver addresses", () => {
    expect(parseResolver("127.0.0.1:5353")).toEqual({ host: "127.0.0.1", port: 5353 });
    expect(parseResolver("9.9.9.9")).toEqual({ host: "9.9.9.9", port: 53 });
    expect(parseResolver("[::1]:53")).toEqual({ host: "::1", port: 53 });
    expect(() => parseResolver("host:99999")).toThrow("not a resolver HOST:PORT: host:99999");
  });
  test("HTTP responses: chunked bodies, repeated headers, the byte cap", () => {
    const raw = Buffer.from(
      "HTTP/1.1 200 OK\r\nSet-Thing: a\r\nset-thing: b\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
    );
    const r = parseResponse("https://u.test/", raw, false, 100);
    expect(r.status).toBe(200);
    expect(r.headers["set-thing"]).toBe("a, b");
    expect(r.body.toString()).toBe("hello world");
    const capped = parseResponse("https://u.test/", raw, false, 4);
    expect(capped.body.toString()).toBe("hell");
    expect(capped.truncated).toBe(true);
    expect(() => parseResponse("https://u.test/", Buffer.from("SSH-2.0-x\r\n\r\n"), false, 10)).toThrow(
      "https://u.test/: not an HTTP response",
    );
  });
  test("a chunked body's end is found as its pieces arrive, whatever their cut", () => {
    const body = "5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nTrailer: x\r\n\r\n";
    for (const size of [1, 2, 3, 7, body.length]) {
      const end = new ChunkedEnd();
      const bytes = Buffer.from(body);
      let done = -1;
      for (let at = 0; at < bytes.length && done < 0; at += size)
        if (end.feed(bytes.subarray(at, at + size))) done = Math.min(at + size, bytes.length);
      expect(done).toBe(bytes.length);
    }
    const partial = new ChunkedEnd();
    expect(partial.feed(Buffer.from("5\r\nhel"))).toBe(false);
    expect(partial.feed(Buffer.from("lo\r\n0\r\n"))).toBe(false);
    expect(partial.feed(Buffer.from("\r\n"))).toBe(true);
    expect(new ChunkedEnd().feed(Buffer.from("zz\r\n"))).toBe(true); // garbage ends it: take what came
    expect(dechunk(Buffer.from(body)).toString()).toBe("hello world");
    expect(dechunk(Buffer.from(body), 7).toString()).toBe("hello w");
  });
  test("a body of 300,000 1-byte chunks, fed a chunk at a time", () => {
    const n = 300_000;
    const wire = Buffer.from(`${"1\r\nx\r\n".repeat(n)}0\r\n\r\n`);
    const end = new ChunkedEnd();
    let done = false;
    for (let at = 0; at < wire.length && !done; at += 6) done = end.feed(wire.subarray(at, at + 6));
    const body = dechunk(wire);
    expect(done).toBe(true);
    expect(body.length).toBe(n);
  });
  test("ages, MTA-STS modes, pages", () => {
    expect([parseAge("30d"), parseAge("12h"), parseAge("7")]).toEqual([30, 0.5, 7]);
    expect(() => parseAge("soon")).toThrow("--stale takes an age such as 30d, 12h or 90m");
    expect(mtaStsMode("version: STSv1\nmode: testing\n")).toBe("testing");
    expect(mtaStsMode("version: STSv1\n")).toBeNull();
    const page = parsePage(
      "https://u.test/a/",
      200,
      { "x-robots-tag": "noarchive" },
      Buffer.from(
        '<html lang="de"><head><base href="/b/"><title> Hi\n there </title><meta name="robots" content="noindex"></head>' +
          '<body><h1>x</h1><h1>y</h1><a href="c#top">c</a><a href="mailto:x@u.test">m</a><a href="https://o.test/">o</a></body></html>',
      ),
      false,
    );
    expect(page).toMatchObject({
      lang: "de",
      title: "Hi there",
      h1_count: 2,
      robots_meta: "noarchive, noindex",
      links: ["https://u.test/b/c", "https://o.test/"],
    });
  });
});

describe("well-known files count only when plausible", () => {
  const response = (status: number, type: string | null, body: string) => ({
    url: "https://u.test/x",
    status,
    headers: type ? { "content-type": type } : ({} as Record<string, string>),
    body: Buffer.from(body),
    truncated: false,
    verified: true,
  });
  const home = "<!doctype html><html><head><title>Home</title></head><body>Welcome</body></html>";
  test("robots.txt: plain text, untyped, or with directives; never an HTML page", () => {
    expect(isRobotsTxt(response(200, "text/plain", "User-agent: *\nDisallow:\n"))).toBe(true);
    expect(isRobotsTxt(response(200, "text/plain", ""))).toBe(true);
    expect(isRobotsTxt(response(200, null, "User-agent: *\n"))).toBe(true);
    expect(isRobotsTxt(response(200, "application/x-unknown", "Sitemap: https://u.test/s.xml\n"))).toBe(true);
    expect(isRobotsTxt(response(200, "text/html", home))).toBe(false);
    expect(isRobotsTxt(response(200, "text/plain", home))).toBe(false);
    expect(isRobotsTxt(response(200, "application/json", "{}"))).toBe(false);
    expect(isRobotsTxt(response(404, "text/plain", "User-agent: *\n"))).toBe(false);
  });
  test("sitemaps: a urlset, an index, a text list of URLs; an HTML page is none", () => {
    expect(
      sitemapKind(response(200, "application/xml", "<urlset><url><loc>https://u.test/</loc></url></urlset>")),
    ).toBe("urlset");
    expect(
      sitemapKind(response(200, "text/xml", "<sitemapindex><sitemap><loc>x</loc></sitemap></sitemapindex>")),
    ).toBe("sitemapindex");
    expect(sitemapKind(response(200, "text/plain", "https://u.test/a\nhttps://u.test/b\n"))).toBe("text");
    expect(sitemapKind(response(200, "application/rss+xml", "<?xml version='1.0'?><rss/>"))).toBe("other");
    expect(sitemapKind(response(200, "text/html", home))).toBeNull();
    expect(sitemapKind(response(200, null, home))).toBeNull();
    expect(sitemapKind(response(200, "text/plain", "not a list of URLs"))).toBeNull();
  });
  test("MTA-STS policies: text/plain with version: STSv1", () => {
    const policy = "version: STSv1\nmode: enforce\nmx: mx.u.test\nmax_age: 86400\n";
    expect(mtaStsMode(policy, "text/plain; charset=utf-8")).toBe("enforce");
    expect(mtaStsMode(policy, "text/html")).toBeNull();
    expect(mtaStsMode("mode: enforce\n", "text/plain")).toBeNull();
  });
});
