import { createServer, type Server, type Socket } from "node:net";
import { startLoopbackDns } from "./loopback-dns.ts";

/**
 * Hostile sites on loopback, each on its own address with a DNS server that names them, for tests and benches of
 * scanning under attack. Plain HTTP only (their HTTPS port resets every connection, so a scan falls back to
 * HTTP); every path answers the same way:
 * - `drip.test`: a chunked body of 1-byte chunks (5 MiB of body, 30 MiB on the wire);
 * - `nested.test`: 5 MiB of nested HTML (`<div>` a million deep), Content-Length given;
 * - `huge.test`: `Content-Length: 1073741824`, then bytes as fast as the socket takes them;
 * - `calm.test`: a small ordinary page.
 */

export const HOSTILE_SITES = ["drip.test", "nested.test", "huge.test", "calm.test"] as const;
export type HostileSite = (typeof HOSTILE_SITES)[number];

export interface HostileWeb {
  resolver: { host: string; port: number };
  ports: { http: number; https: number };
  addresses: Map<HostileSite, string>;
  /** Requests received per site. */
  hits: Map<HostileSite, number>;
  close(): Promise<void>;
}

const MIB = 1024 * 1024;

function respond(site: HostileSite, socket: Socket): void {
  const head = (headers: string) =>
    socket.write(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n${headers}\r\n`);
  if (site === "calm.test") {
    const body = '<!doctype html><html lang="en"><head><title>Calm</title></head><body>calm</body></html>';
    head(`Content-Length: ${body.length}\r\nConnection: close\r\n`);
    socket.end(body);
  } else if (site === "nested.test") {
    head(`Content-Length: ${NESTED.length}\r\nConnection: close\r\n`);
    socket.end(NESTED);
  } else if (site === "drip.test") {
    head("Transfer-Encoding: chunked\r\nConnection: close\r\n");
    writeAll(socket, DRIP, Buffer.from("0\r\n\r\n"));
  } else {
    head(`Content-Length: ${1024 * MIB}\r\nConnection: close\r\n`);
    writeForever(socket, FILLER);
  }
}

/** Writes `data` in pieces as the socket drains, then `last`. */
function writeAll(socket: Socket, data: Buffer, last: Buffer): void {
  let at = 0;
  const step = () => {
    while (at < data.length && !socket.destroyed) {
      const piece = data.subarray(at, at + 64 * 1024);
      at += piece.length;
      if (!socket.write(piece)) return void socket.once("drain", step);
    }
    if (!socket.destroyed) socket.end(last);
  };
  step();
}

/** Writes `piece` again and again until the peer goes away. */
function writeForever(socket: Socket, piece: Buffer): void {
  const step = () => {
    while (!socket.destroyed) if (!socket.write(piece)) return void socket.once("drain", step);
  };
  step();
}

const NESTED = Buffer.from(
  `<!doctype html><html><head><title>Nested</title></head><body>${"<div>".repeat((5 * MIB) / 5 - 40)}</body></html>`,
);
const DRIP = Buffer.from("1\r\nx\r\n".repeat(5 * MIB));
const FILLER = Buffer.alloc(64 * 1024, "<p>hostile</p>\n");

const listen = (server: Server, host: string, port: number) =>
  new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as { port: number }).port);
    });
  });

/** Starts the hostile web: the sites on 127.0.0.{40..43}, a DNS server on a loopback port. */
export async function startHostileWeb(): Promise<HostileWeb> {
  const addresses = new Map(HOSTILE_SITES.map((s, i) => [s, `127.0.0.${40 + i}`] as const));
  const hits = new Map<HostileSite, number>();
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
  };
  const build = () =>
    HOSTILE_SITES.map((site) => ({
      site,
      http: createServer((socket) => {
        track(socket);
        let seen = "";
        socket.on("data", (d) => {
          if (seen.includes("\r\n\r\n")) return;
          seen += d.toString("latin1");
          if (!seen.includes("\r\n\r\n")) return;
          hits.set(site, (hits.get(site) ?? 0) + 1);
          respond(site, socket);
        });
      }),
      https: createServer((socket) => socket.resetAndDestroy()),
    }));
  let servers = build();
  const ports = { http: 0, https: 0 };
  for (let attempt = 0; ; attempt++) {
    try {
      for (const s of servers) {
        const ip = addresses.get(s.site) as string;
        ports.http = await listen(s.http, ip, ports.http);
        ports.https = await listen(s.https, ip, ports.https);
      }
      break;
    } catch (e) {
      for (const s of servers) {
        s.http.close();
        s.https.close();
      }
      if (attempt >= 5) throw e;
      servers = build();
      ports.http = 0;
      ports.https = 0;
    }
  }
  const dns = await startLoopbackDns((name) => addresses.get(name.replace(/^www\./, "") as HostileSite));
  return {
    resolver: dns.resolver,
    ports,
    addresses,
    hits,
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(
        servers
          .flatMap((s) => [s.http, s.https])
          .map((srv) => new Promise<void>((r) => srv.close(() => r()))),
      );
      await dns.close();
    },
  };
}
