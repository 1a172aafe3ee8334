import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { tempDir } from "../support/databases.ts";
import { type ServeProcess, startServe } from "../support/serve-process.ts";
import { until } from "../support/until.ts";

/**
 * SIGTERM drains a real `unirank serve`: a request in flight (held on the write lock of the access-state file,
 * which its rate-limit count needs) finishes with 200, requests after the signal are refused, the process logs a
 * stopping and a stopped line and exits 0; past the shutdown timeout a request is cut. The signal is sent once
 * the server's metrics count the request in flight.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A served database, with a way to hold the write lock of its access-state file from outside. */
async function server(args: string[] = []) {
  const dir = tempDir("unirank-drain-");
  dirs.push(dir);
  const db = join(dir, "u.db");
  const serve = await startServe([
    "--db",
    db,
    "--rate-limit",
    "1000",
    "--metrics-listen",
    "127.0.0.1:0",
    ...args,
  ]);
  const lock = new Database(`${db}.access`);
  lock.exec("pragma busy_timeout = 5000");
  const metricsUrl = /"metrics":"([^"]+)"/.exec(serve.log())?.[1] ?? "";
  /** Waits until the server has taken `n` requests it has not answered yet (`unirank_http_requests_in_flight`). */
  const inFlight = (n: number) =>
    until(
      `${n} request(s) in flight`,
      async () => {
        const text = await (await fetch(metricsUrl)).text();
        return new RegExp(`^unirank_http_requests_in_flight ${n}$`, "m").test(text);
      },
      10_000,
      20,
    );
  return { serve, lock, inFlight };
}

const lines = (s: ServeProcess) =>
  s
    .log()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** One request on a raw connection opened beforehand: its status line, or what became of the connection. */
function rawRequest(url: string) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = "";
  const closed = new Promise<string>((resolve) => {
    socket.on("data", (chunk) => {
      received += chunk.toString();
    });
    socket.on("error", (e) => resolve(`error ${(e as { code?: string }).code ?? e.message}`));
    socket.on("close", () => resolve(received.split("\r\n")[0] || "closed"));
  });
  const open = new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  return {
    open,
    send(path: string) {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`);
      return closed;
    },
  };
}

describe("SIGTERM", () => {
  test("the request in flight completes with 200; requests after the signal are refused; exit 0", async () => {
    const { serve, lock, inFlight } = await server();
    await inFlight(0);
    const idle = rawRequest(serve.url);
    await idle.open;
    lock.exec("begin immediate");
    const slow = fetch(`${serve.url}/api/v1/stats`).then(async (r) => ({
      status: r.status,
      body: await r.text(),
    }));
    await inFlight(1);
    serve.proc.kill("SIGTERM");
    await until("the stopping line", () => serve.log().includes('"message":"unirank stopping"'), 10_000, 20);

    // A new connection is refused; a request on a connection opened before the signal gets no answer.
    const after = await fetch(`${serve.url}/api/v1/stats`).then(
      (r) => `status ${r.status}`,
      (e: Error & { code?: string }) => `error ${e.code ?? e.message}`,
    );
    expect(after).toMatch(/^error /);
    expect(await idle.send("/api/v1/stats")).not.toContain(" 200 ");

    lock.exec("commit");
    lock.close();
    const answered = await slow;
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body).success).toBe(true);
    expect(await serve.proc.exited).toBe(0);

    const log = lines(serve);
    const stopping = log.find((l) => l.message === "unirank stopping");
    expect(stopping).toMatchObject({ level: "info", reason: "server stopped (SIGTERM)", in_flight: 1 });
    const stopped = log.at(-1);
    expect(stopped).toMatchObject({ level: "info", message: "unirank stopped" });
    expect(stopped?.requests_cut).toBeUndefined();
  }, 60_000);

  test("past --shutdown-timeout the request is cut, and the process still exits 0", async () => {
    const { serve, lock, inFlight } = await server(["--shutdown-timeout", "1s"]);
    lock.exec("begin immediate");
    const slow = fetch(`${serve.url}/api/v1/stats`).then(
      (r) => `status ${r.status}`,
      () => "cut",
    );
    await inFlight(1);
    const signalled = performance.now();
    serve.proc.kill("SIGTERM");
    expect(await serve.proc.exited).toBe(0);
    const took = performance.now() - signalled;
    lock.exec("rollback");
    lock.close();
    expect(await slow).toBe("cut");
    // Cut at the deadline, well before the 5 s the request would have waited for the lock.
    expect(took).toBeLessThan(4000);
    expect(lines(serve).at(-1)).toMatchObject({ level: "warn", message: "unirank stopped", requests_cut: 1 });
  }, 60_000);
});
