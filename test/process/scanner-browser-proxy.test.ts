import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { type PinnedProxy, startPinnedProxy } from "../../src/scanner/browser/pinned-proxy.ts";

/**
 * The pinned proxy the browser's contexts go through, spoken to as Chromium speaks to it (absolute-URL requests
 * and CONNECT) over real loopback sockets: pinned hosts reach the scanner's answer, anything else is refused
 * without a connection.
 */

let upstream: ReturnType<typeof Bun.serve>;
let tunnelEnd: { port: number; stop(closeActive?: boolean): void };
let tunnelConnections = 0;
const seen: string[] = [];
let proxy: PinnedProxy;
const refusals: string[] = [];

beforeAll(async () => {
  upstream = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      seen.push(`${req.headers.get("host")} ${new URL(req.url).pathname}`);
      return new Response(`hello ${req.headers.get("host")}`, { headers: { "x-upstream": "yes" } });
    },
  });
  tunnelEnd = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open() {
        tunnelConnections++;
      },
      data(socket, data) {
        socket.write(`echo:${data.toString()}`);
      },
    },
  });
  const pins = new Map([
    ["uni.test", "127.0.0.1"],
    ["cdn.uni.test", "127.0.0.1"],
  ]);
  proxy = await startPinnedProxy({
    addressOf: (host) => pins.get(host) ?? null,
    ports: new Set([upstream.port ?? 0, tunnelEnd.port]),
    onRefused: (host, port) => refusals.push(`${host}:${port}`),
  });
});

afterAll(async () => {
  await proxy?.close();
  upstream?.stop(true);
  tunnelEnd?.stop(true);
});

/** Sends raw bytes to the proxy and reads until it closes or `until` matches. */
function exchange(text: string, until?: RegExp, afterwards?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = "";
    let sentAfter = false;
    const socket = connect(proxy.port, "127.0.0.1", () => socket.write(text));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(got);
    }, 3_000);
    socket.on("data", (d) => {
      got += d.toString();
      if (afterwards && !sentAfter && got.includes("\r\n\r\n")) {
        sentAfter = true;
        socket.write(afterwards);
        return;
      }
      if (until?.test(got)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(got);
      }
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(got);
    });
    socket.on("error", reject);
  });
}

describe("pinned proxy", () => {
  test("its address is a name Chromium's resolver rules map to loopback", () => {
    expect(proxy.server).toBe(`http://unirank-proxy.invalid:${proxy.port}`);
  });

  test("a plain request for a pinned host reaches the pinned address, its Host kept", async () => {
    const port = upstream.port;
    const answer = await exchange(
      `GET http://cdn.uni.test:${port}/logo.png?x=1 HTTP/1.1\r\nHost: cdn.uni.test:${port}\r\nProxy-Connection: keep-alive\r\n\r\n`,
      /hello cdn\.uni\.test/,
    );
    expect(answer).toStartWith("HTTP/1.1 200");
    expect(answer).toContain("x-upstream: yes");
    expect(seen).toContain(`cdn.uni.test:${port} /logo.png`);
  });

  test("a host that is not pinned, an address literal or another port: 403, nothing connected", async () => {
    const before = seen.length;
    const port = upstream.port;
    for (const [host, p] of [
      ["meta.uni.test", port],
      ["127.0.0.1", port],
      ["localhost", port],
      ["uni.test", 22],
    ] as const) {
      const answer = await exchange(
        `GET http://${host}:${p}/ HTTP/1.1\r\nHost: ${host}:${p}\r\n\r\n`,
        /\r\n\r\n/,
      );
      expect(answer).toStartWith("HTTP/1.1 403");
    }
    expect(seen.length).toBe(before);
    expect(refusals).toEqual(
      expect.arrayContaining([
        `meta.uni.test:${port}`,
        `127.0.0.1:${port}`,
        `localhost:${port}`,
        "uni.test:22",
      ]),
    );
  });

  test("CONNECT tunnels to a pinned host and refuses others, the refused address never connected", async () => {
    const port = tunnelEnd.port;
    const open = await exchange(
      `CONNECT uni.test:${port} HTTP/1.1\r\nHost: uni.test:${port}\r\n\r\n`,
      /echo:ping/,
      "ping",
    );
    expect(open).toStartWith("HTTP/1.1 200");
    expect(open).toContain("echo:ping");
    expect(tunnelConnections).toBe(1);
    for (const target of [
      `intra.uni.test:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      `uni.test:23`,
      "uni.test",
    ]) {
      const refused = await exchange(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`, /\r\n\r\n/);
      expect(refused).toStartWith("HTTP/1.1 403");
    }
    expect(tunnelConnections).toBe(1);
  });

  test("a request that is not for a proxy is a 400, not a crash", async () => {
    const answer = await exchange("GET /local HTTP/1.1\r\nHost: x\r\n\r\n", /\r\n\r\n/);
    expect(answer).toStartWith("HTTP/1.1 400");
  });
});
