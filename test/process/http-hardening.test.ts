/**
 * The request path against what a hostile or careless client sends: Host headers, methods, query strings,
 * credentials and targets the usual client libraries would normalise, sent over raw sockets to `serve`.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Elysia } from "elysia";
import { API_KEY_PATTERN } from "../../lib/access/api-key-format.ts";
import { redactPath } from "../../lib/access/audit-log.ts";
import { type CreatedKey, createKey, readAudit, signRequest } from "../../lib/index.ts";
import { type Config, loadConfig } from "../../src/config.ts";
import { type OpenedDatabase, openAccessState, openDatabase } from "../../src/db/open.ts";
import { createFetchHandler, unirank } from "../../src/elysia.ts";
import { createAccessGuard } from "../../src/http/access.ts";
import { createApp } from "../../src/http/app.ts";
import { parseQueryString } from "../../src/http/query-string.ts";
import { type RunningServer, startServer } from "../../src/server.ts";
import { testContext } from "../support/fixtures-app.ts";

interface RawAnswer {
  /** Every byte the server sent before closing. */
  bytes: number;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `text` as is on a new loopback connection and reads until the server closes it. */
function raw(port: number, text: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", reject);
    socket.on("close", () => {
      const all = Buffer.concat(chunks).toString("latin1");
      const end = all.indexOf("\r\n\r\n");
      const head = end < 0 ? all : all.slice(0, end);
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        bytes: all.length,
        status: Number(statusLine.split(" ")[1] ?? 0),
        headers,
        body: end < 0 ? "" : Buffer.from(all.slice(end + 4), "latin1").toString("utf8"),
      });
    });
    socket.write(text);
    // Nothing more will be sent; a server that keeps the connection open is closed on by us after 2 s.
    setTimeout(() => socket.destroy(), 2000).unref();
  });
}

/** A GET with the given target and header lines, `Connection: close`. */
const get = (target: string, ...headerLines: string[]) =>
  `GET ${target} HTTP/1.1\r\n${headerLines.map((h) => `${h}\r\n`).join("")}Connection: close\r\n\r\n`;

const config = (dir: string, rateLimit: number): Config => ({
  ...loadConfig({}, {}),
  port: 0,
  host: "127.0.0.1",
  db: join(dir, "unirank.db"),
  rateLimit,
  logDir: join(dir, "logs"),
  minFreeDiskGb: 0,
  webhookTimeoutMs: 1000,
  gcHeadroomMb: 0,
});

/** The main server's anonymous limit: counted on every request, never reached by these tests. */
const LIMIT = 1_000_000;
let dir: string;
let server: RunningServer;
let port: number;
let opened: OpenedDatabase;
/** Where the server keeps what requests write (the audit log): beside the data file. */
let accessState: OpenedDatabase;
let signer: CreatedKey;
let plain: CreatedKey;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "unirank-hardening-"));
  server = await startServer(config(dir, LIMIT), { quiet: true });
  port = Number(new URL(server.url).port);
  opened = await openDatabase(join(dir, "unirank.db"));
  accessState = await openAccessState(join(dir, "unirank.db"), opened);
  signer = await createKey(opened.db, { name: "signer", requireSignature: true });
  plain = await createKey(opened.db, { name: "plain" });
});

afterAll(async () => {
  await server.stop();
  await accessState.close();
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("routing by the request target only (item 4)", () => {
  const hosts = ["Host: x", "Host: ab", "Host: abc", "Host: api:80", "Host: [::1]"];

  test("short, odd or absent Host headers route like any other", async () => {
    const reference = await raw(port, get("/api/v1/universities/1", "Host: localhost"));
    expect(reference.status).toBe(200);
    expect(JSON.parse(reference.body).data.id).toBe(1);
    for (const host of hosts) {
      for (const path of ["/api/v1/universities/1", "/health", "/api/v1/stats", "/api/v2/universities/1"]) {
        const r = await raw(port, get(path, host));
        expect(`${host} ${path} ${r.status}`).toBe(`${host} ${path} 200`);
      }
      const one = await raw(port, get("/api/v1/universities/1", host));
      expect(one.body).toBe(reference.body);
      // The client IP is still known: the anonymous limit counts this request.
      expect(one.headers["x-ratelimit-limit"]).toBe(String(LIMIT));
    }
    // HTTP/1.0 without any Host header.
    const old = await raw(port, "GET /api/v1/universities/1 HTTP/1.0\r\n\r\n");
    expect(old.status).toBe(200);
    expect(old.body).toBe(reference.body);
    const oldHealth = await raw(port, "GET /health HTTP/1.0\r\n\r\n");
    expect(oldHealth.status).toBe(200);
  });

  test("a path with a prefix in front of a route is no route, in the shape of its own version", async () => {
    for (const host of [...hosts, "Host: localhost"]) {
      for (const path of ["/zz/api/v1/universities/1", "/docs/api/v1/universities/1", "/xx/health"]) {
        const r = await raw(port, get(path, host));
        expect(`${host} ${path} ${r.status}`).toBe(`${host} ${path} 404`);
        expect(JSON.parse(r.body)).toEqual({
          success: false,
          error: { code: "NOT_FOUND", message: expect.any(String) },
        });
      }
      const v2 = await raw(port, get("/api/v2/universities/999999", host));
      expect(v2.status).toBe(404);
      expect(JSON.parse(v2.body)).toMatchObject({ api_version: "2.0", success: false, data: null });
    }
    const old = await raw(port, "GET /zz/api/v1/universities/1 HTTP/1.0\r\n\r\n");
    expect(old.status).toBe(404);
  });

  test("HEAD and OPTIONS with a short Host", async () => {
    const head = await raw(port, "HEAD /api/v1/stats HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    const options = await raw(port, "OPTIONS /api/v1/stats HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(options.status).toBe(204);
    const post = await raw(
      port,
      "POST /api/v1/stats HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    expect(post.status).toBe(405);
  });
});

describe("routing by the target when embedded (item 4)", () => {
  test("the fetch handler under a prefix and the plugin at the root ignore the Host header", async () => {
    const handler = createFetchHandler({ db: opened.db, prefix: "/unirank", access: false });
    const app = new Elysia().get("/mine", () => "mine").use(unirank({ db: opened.db, access: false }));
    const viaHandler = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => handler(request) });
    const viaPlugin = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => app.handle(request) });
    try {
      const cases: [number, string, number][] = [
        [viaHandler.port as number, "/unirank/api/v1/universities/1", 200],
        [viaHandler.port as number, "/unirank/zz/api/v1/universities/1", 404],
        [viaHandler.port as number, "/zz/unirank/api/v1/universities/1", 404],
        [viaPlugin.port as number, "/api/v1/universities/1", 200],
        [viaPlugin.port as number, "/zz/api/v1/universities/1", 404],
      ];
      for (const [p, target, status] of cases) {
        for (const request of [get(target, "Host: x"), `GET ${target} HTTP/1.0\r\n\r\n`]) {
          const r = await raw(p, request);
          expect(`${target} ${r.status}`).toBe(`${target} ${status}`);
          if (status === 200) expect(JSON.parse(r.body).data.id).toBe(1);
        }
      }
    } finally {
      viaHandler.stop(true);
      viaPlugin.stop(true);
      await handler.close();
    }
  });
});

describe("query strings (items 5, 6 and 12)", () => {
  test("a parameter repeated 8,100 times is ignored like any unknown parameter", async () => {
    const r = await raw(port, get(`/api/v1/universities?limit=1${"&x".repeat(8100)}`, "Host: localhost"));
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).data).toHaveLength(1);
    const encoded = await raw(port, get(`/api/v1/universities?limit=1${"&x=%41".repeat(2000)}`, "Host: a"));
    expect(encoded.status).toBe(200);
  });

  test("a repeated name keeps every value, in order (the cost per length is in bench/query-string.ts)", () => {
    const parsed = parseQueryString(`a=1${"&x".repeat(5)}&a=2`);
    expect(parsed.x).toEqual(["", "", "", "", ""]);
    expect(parsed.a).toEqual(["1", "2"]);
  });

  test("any parameter name is just a parameter: __proto__, constructor, toString, hasOwnProperty", async () => {
    const names = [
      "__proto__=1",
      "__proto__",
      "__pro%74o__=x",
      "__proto__=1&__proto__=2",
      "constructor=1",
      "constructor",
      "toString=x",
      "hasOwnProperty=1",
      "valueOf",
      "__defineGetter__=1",
      "__proto__[sort]=x",
      "__proto__.sort=x",
    ];
    for (const path of [
      "/api/v1/universities",
      "/api/v1/rankings",
      "/api/v2/universities",
      "/api/v2/rankings",
    ]) {
      const reference = JSON.parse((await raw(port, get(`${path}?limit=3`, "Host: localhost"))).body).data;
      for (const query of names) {
        const r = await raw(port, get(`${path}?limit=3&${query}`, "Host: localhost"));
        expect(`${path}?${query} ${r.status}`).toBe(`${path}?${query} 200`);
        expect(JSON.parse(r.body).data).toEqual(reference);
      }
    }
    const parsed = parseQueryString("__proto__=1&constructor=2");
    expect(Object.keys(parsed)).toEqual(["__proto__", "constructor"]);
    expect(Object.getOwnPropertyDescriptor(parsed, "constructor")?.value).toBe("2");
  });

  test("search refuses C0, DEL and C1 control characters, and takes other characters", async () => {
    for (const bad of ["%00", "%1F", "%7F", "%C2%80", "%C2%85", "%C2%9F", "a%C2%85b"]) {
      for (const path of ["/api/v1/universities", "/api/v2/universities"]) {
        const r = await raw(port, get(`${path}?search=${bad}`, "Host: localhost"));
        expect(`${path} ${bad} ${r.status}`).toBe(`${path} ${bad} 400`);
        const body = JSON.parse(r.body);
        expect(body.error.code).toBe("INVALID_PARAMETER");
        expect(body.error.message).toContain("control characters");
      }
    }
    for (const good of ["%C2%A0", "%C3%A9cole", "uni"]) {
      expect((await raw(port, get(`/api/v1/universities?search=${good}`, "Host: localhost"))).status).toBe(
        200,
      );
    }
  });
});

describe("entity tags per representation (item 7)", () => {
  const path = "/api/v1/universities?limit=100";
  const ask = (encoding: string, ...extra: string[]) =>
    raw(port, get(path, "Host: localhost", `Accept-Encoding: ${encoding}`, ...extra));

  test("identity, gzip and br bodies of one answer carry different strong tags", async () => {
    const identity = await ask("identity");
    const gzip = await ask("gzip");
    const br = await ask("br");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(br.headers["content-encoding"]).toBe("br");
    const tags = [identity, gzip, br].map((r) => r.headers.etag ?? "");
    for (const tag of tags) expect(tag).toMatch(/^"[^"]+"$/);
    expect(new Set(tags).size).toBe(3);
    // Each tag validates its own representation only.
    expect((await ask("gzip", `If-None-Match: ${gzip.headers.etag}`)).status).toBe(304);
    expect((await ask("gzip", `If-None-Match: W/${gzip.headers.etag}`)).status).toBe(304);
    expect((await ask("gzip", `If-None-Match: ${identity.headers.etag}`)).status).toBe(200);
    expect((await ask("identity", `If-None-Match: ${gzip.headers.etag}`)).status).toBe(200);
    expect((await ask("br", `If-None-Match: ${br.headers.etag}`)).status).toBe(304);
    // HEAD names the tag GET would send.
    const head = await raw(
      port,
      `HEAD ${path} HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n`,
    );
    expect(head.headers.etag).toBe(gzip.headers.etag);
  });
});

describe("descriptions of the running server (item 8)", () => {
  const schemaOf = async (anonymousLimit: number | null) => {
    const ctx = testContext(opened.db, { cache: false });
    const access =
      anonymousLimit === null
        ? undefined
        : createAccessGuard({ db: opened.db, clock: ctx.clock, anonymousLimit, pruneIntervalMs: 0 });
    const app = createApp({ ...ctx, ...(access ? { access } : {}) });
    const schema = await (await app.handle(new Request("http://localhost/api/v2/schema"))).json();
    const openapi = await (await app.handle(new Request("http://localhost/openapi.json"))).json();
    await access?.close();
    return { auth: schema.data.auth, description: openapi.info.description as string };
  };

  test("the anonymous limit is the server's own, null where there is none", async () => {
    const seven = await schemaOf(7);
    expect(seven.auth.enabled).toBe(true);
    expect(seven.auth.anonymous.limit).toBe(7);
    expect(seven.description).toContain("may make 7 requests per hour");
    expect(
      seven.auth.api_key.locations.map((l: { in: string; name: string }) => `${l.in}:${l.name}`),
    ).toEqual(["header:X-API-Key", "header:Authorization", "query:api_key"]);
    expect(seven.auth.anonymous.window_seconds).toBe(3600);
    expect(seven.auth.hmac.headers).toEqual({ timestamp: "X-Timestamp", signature: "X-Signature" });
    expect(seven.auth.hmac.algorithm).toBe("HMAC-SHA256");
    expect(seven.auth.hmac.tolerance_seconds).toBe(300);
    const off = await schemaOf(0);
    expect(off.auth.anonymous.limit).toBeNull();
    expect(off.description).toContain("not limited");
    expect(off.description).not.toContain("may make");
    const none = await schemaOf(null);
    expect(none.auth.enabled).toBe(false);
    expect(none.auth.anonymous.limit).toBeNull();
    expect(none.auth.api_key).toBeNull();
    expect(none.auth.hmac).toBeNull();
  });

  test("signatures are described for v1 and v2, as they are checked", async () => {
    const { auth, description } = await schemaOf(100);
    expect(auth.hmac.applies_to).toContain("v1 and v2");
    expect(description).toContain("v1 and v2 requests may be signed");
    // And v1 does check them.
    const unsigned = await raw(port, get("/api/v1/stats", "Host: localhost", `X-API-Key: ${signer.key}`));
    expect(unsigned.status).toBe(401);
    expect(JSON.parse(unsigned.body).error.code).toBe("INVALID_SIGNATURE");
  });

  test("serve --rate-limit 0 says so in /api/v2/schema", async () => {
    const own = mkdtempSync(join(tmpdir(), "unirank-hardening-"));
    const unlimited = await startServer(config(own, 0), { quiet: true });
    try {
      const r = await raw(Number(new URL(unlimited.url).port), get("/api/v2/schema", "Host: localhost"));
      expect(JSON.parse(r.body).data.auth.anonymous.limit).toBeNull();
    } finally {
      await unlimited.stop();
      rmSync(own, { recursive: true, force: true });
    }
    const limited = await raw(port, get("/api/v2/schema", "Host: localhost"));
    expect(JSON.parse(limited.body).data.auth.anonymous.limit).toBe(LIMIT);
  });
});

describe("HMAC over the target as the server reads it (item 9)", () => {
  const signed = (target: string, signedTarget: string) => {
    const ts = Math.floor(Date.now() / 1000);
    return raw(
      port,
      get(
        target,
        "Host: localhost",
        `X-API-Key: ${signer.key}`,
        `X-Timestamp: ${ts}`,
        `X-Signature: ${signRequest(signer.signing_secret ?? "", ts, "GET", signedTarget)}`,
      ),
    );
  };

  test("dot segments: signing the normalised target passes, signing them as sent is refused", async () => {
    const asSent = await signed("/api/v2/universities/1/../2?x=", "/api/v2/universities/1/../2?x=");
    expect(asSent.status).toBe(401);
    const error = JSON.parse(asSent.body).error;
    expect(error.code).toBe("INVALID_SIGNATURE");
    // The refusal names the target that is signed.
    expect(error.message).toContain("GET /api/v2/universities/2?x=");
    const normalised = await signed("/api/v2/universities/1/../2?x=", "/api/v2/universities/2?x=");
    expect(normalised.status).toBe(200);
    expect(JSON.parse(normalised.body).data.id).toBe(2);
    // Encoded dot segments and characters outside the URL syntax, the same way.
    const encoded = await signed("/api/v1/universities/%2e%2e/universities/3", "/api/v1/universities/3");
    expect(encoded.status).toBe(200);
    const quoted = await signed('/api/v2/universities?search="x"', "/api/v2/universities?search=%22x%22");
    expect(quoted.status).toBe(200);
  });
});

describe("a Bearer credential holding a comma", () => {
  test("Bearer K,K and Bearer K, K: 401 saying one key is sent, never 'a value without a scheme', key not echoed", async () => {
    for (const form of [
      `Bearer ${plain.key},${plain.key}`,
      `Bearer ${plain.key}, ${plain.key}`,
      "Bearer a,b",
    ]) {
      const r = await raw(port, get("/api/v2/universities/1", "Host: localhost", `Authorization: ${form}`));
      expect(r.status).toBe(401);
      const body = JSON.parse(r.body);
      expect(body.error.code).toBe("INVALID_API_KEY");
      expect(body.error.message).toBe(
        "Authorization: Bearer carries one key, and this one has a comma in it (no key has); send the API key as Authorization: Bearer <key>, as X-API-Key: <key> or as ?api_key=<key>",
      );
      expect(r.body).not.toContain(plain.key);
    }
  });
});

describe("credentials in a form that cannot be used (item 10)", () => {
  test("Basic, other schemes and bare keys in Authorization are 401 saying how to send a key", async () => {
    const forms = [
      `Basic ${plain.key}`,
      `Basic ${Buffer.from(`${plain.key}:`).toString("base64")}`,
      plain.key,
      `Token ${plain.key}`,
      "Basic dXNlcjpwYXNz",
      `Bearer ${plain.key}, Basic x`,
    ];
    for (const form of forms) {
      for (const path of ["/api/v1/stats", "/api/v2/universities/1"]) {
        const r = await raw(port, get(path, "Host: localhost", `Authorization: ${form}`));
        expect(`${form} ${path} ${r.status}`).toBe(`${form} ${path} 401`);
        const body = JSON.parse(r.body);
        expect(body.error.code).toBe("INVALID_API_KEY");
        expect(body.error.message).toContain("Authorization: Bearer <key>");
        expect(body.error.message).toContain("X-API-Key");
        expect(r.headers["www-authenticate"]).toContain("Bearer");
        expect(r.body).not.toContain(plain.key);
      }
    }
    const bearer = await raw(
      port,
      get("/api/v1/stats", "Host: localhost", `Authorization: Bearer ${plain.key}`),
    );
    expect(bearer.status).toBe(200);
    expect(bearer.headers["ratelimit-policy"]).toContain("per-key");
    // An empty header carries no credential.
    const empty = await raw(port, get("/api/v1/stats", "Host: localhost", "Authorization: "));
    expect(empty.status).toBe(200);
    expect(empty.headers["ratelimit-policy"]).toContain("per-ip");
  });
});

describe("audit redaction after decoding (item 11)", () => {
  test("redactPath finds keys however they are encoded", () => {
    const k = plain.key;
    const encodedFirst = `%75${k.slice(1)}`;
    const cases = [
      `/api/v2/stats?x=${encodedFirst}`,
      `/api/v2/stats?x=${encodeURIComponent(`a ${k} b`).replace(/%20/g, "+")}`,
      `/api/v2/stats?x=${encodeURIComponent(encodeURIComponent(k))}`,
      `/api/v2/stats?${encodedFirst}=1`,
      `/api/v2/universities/${encodedFirst}`,
      `/api/v2/stats?api%5Fkey=${encodedFirst}`,
      `/api/v2/stats?x=${k}`,
      `/api/v2/stats?x=${Array.from(k, (c) => `%${c.charCodeAt(0).toString(16)}`).join("")}`,
    ];
    for (const path of cases) {
      const out = redactPath(path);
      const decoded = decodeURIComponent(decodeURIComponent(out.replace(/\+/g, " ")));
      expect(decoded.includes(k.slice(4)) ? `${path} kept the key` : "redacted").toBe("redacted");
      API_KEY_PATTERN.lastIndex = 0;
    }
    expect(redactPath("/api/v2/universities?search=%C3%A9cole&page=2")).toBe(
      "/api/v2/universities?search=%C3%A9cole&page=2",
    );
  });

  test("a key percent-encoded inside another parameter never reaches audit_log.path", async () => {
    const marker = `m${Date.now()}`;
    const encoded = `%75${plain.key.slice(1)}`;
    const r = await raw(
      port,
      get(`/api/v2/universities/1?${marker}=1&x=${encoded}&y=a%2B${encoded}`, "Host: localhost"),
    );
    expect(r.status).toBe(200);
    let rows: Awaited<ReturnType<typeof readAudit>> = [];
    for (let i = 0; i < 50 && rows.length === 0; i++) {
      rows = (await readAudit(accessState.db)).filter((row) => row.path.includes(marker));
      if (rows.length === 0) await Bun.sleep(100);
    }
    expect(rows).toHaveLength(1);
    expect(rows[0]?.path).not.toContain(plain.key.slice(4));
    expect(rows[0]?.path).toContain("urk_REDACTED");
  });

  test("a request remade for a short Host keeps its client IP, target and signature", async () => {
    const marker = `h${Date.now()}`;
    const target = `/api/v2/universities/1/../2?${marker}=1`;
    const ts = Math.floor(Date.now() / 1000);
    const signature = signRequest(
      signer.signing_secret ?? "",
      ts,
      "GET",
      `/api/v2/universities/2?${marker}=1`,
    );
    for (const host of ["Host: x", ""]) {
      const r = await raw(
        port,
        `GET ${target} HTTP/1.0\r\n${host ? `${host}\r\n` : ""}X-API-Key: ${signer.key}\r\nX-Timestamp: ${ts}\r\nX-Signature: ${signature}\r\n\r\n`,
      );
      // The same signature twice: the second is a replay, whatever the Host.
      expect(r.status).toBe(host ? 200 : 401);
    }
    let rows: Awaited<ReturnType<typeof readAudit>> = [];
    for (let i = 0; i < 50 && rows.length < 2; i++) {
      rows = (await readAudit(accessState.db)).filter((row) => row.path.includes(marker));
      if (rows.length < 2) await Bun.sleep(100);
    }
    expect(rows.map((row) => [row.client_ip, row.path, row.status])).toEqual([
      ["127.0.0.1", `/api/v2/universities/2?${marker}=1`, 200],
      ["127.0.0.1", `/api/v2/universities/2?${marker}=1`, 401],
    ]);
  });
});

describe("methods the runtime's parser refuses (item 17)", () => {
  test("FOO and lower-case methods: Bun closes the connection before any JavaScript runs", async () => {
    // The evidence: a server whose handler answers everything never sees these requests.
    let calls = 0;
    const bare = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => {
        calls++;
        return new Response("seen");
      },
    });
    try {
      for (const line of ["FOO /api/v1/stats", "get /api/v1/stats", "Get /api/v1/stats"]) {
        const r = await raw(bare.port as number, `${line} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
        expect(`${line}: ${r.bytes}`).toBe(`${line}: 0`);
        const ours = await raw(port, `${line} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
        expect(`${line}: ${ours.bytes}`).toBe(`${line}: 0`);
      }
      expect(calls).toBe(0);
      // A method the parser knows reaches the handler.
      expect(
        (await raw(bare.port as number, "PROPFIND / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")).body,
      ).toBe("seen");
      expect(calls).toBe(1);
    } finally {
      bare.stop(true);
    }
  });

  test("every method that reaches unirank is answered: 405 on a known path, 404 elsewhere", async () => {
    for (const method of ["PROPFIND", "QUERY", "TRACE", "PURGE", "LINK", "CONNECT"]) {
      const known = await raw(
        port,
        `${method} /api/v1/stats HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      if (known.bytes === 0) continue;
      expect(`${method} ${known.status}`).toBe(`${method} 405`);
      expect(known.headers.allow).toBe("GET, HEAD, OPTIONS");
      expect(JSON.parse(known.body).error.code).toBe("METHOD_NOT_ALLOWED");
      const unknown = await raw(port, `${method} /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(`${method} ${unknown.status}`).toBe(`${method} 404`);
    }
  });
});
