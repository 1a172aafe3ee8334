import { describe, expect, test } from "bun:test";
import { accessLog } from "../../src/access-log.ts";
import { loadConfig, parseListen } from "../../src/config.ts";
import type { RequestRecord } from "../../src/http/observer.ts";

describe("the access log's line", () => {
  const lineOf = (over: Partial<RequestRecord>) => {
    const lines: string[] = [];
    accessLog({ writeLine: (_, json) => lines.push(json) }).observe({
      method: "GET",
      route: "/api/v1/universities/:id",
      status: 200,
      seconds: 0.0123456,
      requestId: "req-1",
      keyId: 7,
      rateLimited: null,
      clientIp: () => "203.0.113.9",
      ...over,
    });
    expect(lines).toHaveLength(1);
    return lines[0] as string;
  };

  test("is the logger's shape: level, time, message first, then the request's fields", () => {
    const parsed = JSON.parse(lineOf({}));
    expect(Object.keys(parsed)).toEqual([
      "level",
      "time",
      "message",
      "method",
      "route",
      "status",
      "duration_ms",
      "client",
      "key_id",
      "request_id",
    ]);
    expect(parsed).toMatchObject({
      level: "info",
      message: "request",
      method: "GET",
      route: "/api/v1/universities/:id",
      status: 200,
      duration_ms: 12.35,
      client: "203.0.113.9",
      key_id: 7,
      request_id: "req-1",
    });
    expect(new Date(parsed.time).toISOString()).toBe(parsed.time);
  });

  test("stays valid JSON whatever the strings hold", () => {
    for (const odd of [
      'a"b',
      "a\\b",
      "tab\there",
      "nl\nx",
      "é ünï 漢字",
      "\u0000\u001f\u007f",
      "</script>",
      "",
    ]) {
      const parsed = JSON.parse(lineOf({ method: odd, route: odd, requestId: odd, clientIp: () => odd }));
      expect([parsed.method, parsed.route, parsed.request_id, parsed.client]).toEqual([odd, odd, odd, odd]);
    }
    const none = JSON.parse(lineOf({ route: null, keyId: null, clientIp: () => undefined }));
    expect([none.route, none.key_id, none.client]).toEqual([null, null, null]);
  });
});

describe("operations settings", () => {
  test("defaults: info, no access log, no metrics, 10 s to drain, the demo on", () => {
    expect(loadConfig({}, {})).toMatchObject({
      logLevel: "info",
      accessLog: false,
      metricsListen: null,
      shutdownTimeoutMs: 10_000,
      demo: true,
    });
  });

  test("options win over the environment; the environment over defaults", () => {
    const env = {
      UNIRANK_LOG_LEVEL: "WARN",
      UNIRANK_ACCESS_LOG: "yes",
      UNIRANK_METRICS_LISTEN: "[::1]:9464",
      UNIRANK_SHUTDOWN_TIMEOUT: "30s",
      UNIRANK_DEMO: "off",
    };
    expect(loadConfig({}, env)).toMatchObject({
      logLevel: "warn",
      accessLog: true,
      metricsListen: { host: "::1", port: 9464 },
      shutdownTimeoutMs: 30_000,
      demo: false,
    });
    expect(
      loadConfig({ logLevel: "debug", metricsListen: "127.0.0.1:0", shutdownTimeout: "0", demo: true }, env),
    ).toMatchObject({
      logLevel: "debug",
      metricsListen: { host: "127.0.0.1", port: 0 },
      shutdownTimeoutMs: 0,
    });
    expect(loadConfig({ demo: false }, {}).demo).toBe(false);
  });

  test("bad values stop the start with a message", () => {
    expect(() => loadConfig({ logLevel: "verbose" }, {})).toThrow(
      "log level must be one of debug, info, warn, error",
    );
    expect(() => loadConfig({}, { UNIRANK_SHUTDOWN_TIMEOUT: "soon" })).toThrow("shutdown timeout");
    for (const bad of ["9464", "localhost", "127.0.0.1:99999", "::1:9464", "host:port", "a b:1"])
      expect(() => parseListen("metrics address", bad), bad).toThrow("metrics address must be HOST:PORT");
    expect(parseListen("x", "0.0.0.0:9464")).toEqual({ host: "0.0.0.0", port: 9464 });
    expect(parseListen("x", "metrics.internal:9100")).toEqual({ host: "metrics.internal", port: 9100 });
  });
});
