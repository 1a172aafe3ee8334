import { Agent, createServer, type IncomingHttpHeaders, request } from "node:http";
import { connect, type Socket } from "node:net";

/**
 * The name Chromium reaches every pinned proxy by: its resolver rules map this name to 127.0.0.1 and every other
 * name (address literals included) to nothing, so a request that did not go through a proxy goes nowhere.
 */
export const PROXY_HOST = "unirank-proxy.invalid";

/** Chromium's resolver rules for a browser whose contexts reach sites through pinned proxies only. */
export const RESOLVE_PROXY_ONLY = `--host-resolver-rules=MAP ${PROXY_HOST} 127.0.0.1 , MAP * ~NOTFOUND`;

/**
 * The proxy bypass list of a pinned context: Chromium sends loopback and `localhost` requests around a proxy
 * unless told not to; `<-loopback>` removes that, so every request goes through the proxy.
 */
export const BYPASS_NOTHING = "<-loopback>";

export interface PinnedProxyOptions {
  /** The address `host` may be reached at (the scan's guarded answer), or null: refused, nothing is connected. */
  addressOf(host: string): string | null;
  /** The ports a connection may go to. */
  ports: ReadonlySet<number>;
  /** Called for each refused request or tunnel. */
  onRefused?(host: string, port: number): void;
}

export interface PinnedProxy {
  /** `http://unirank-proxy.invalid:PORT`, for a browser context's `proxy.server`. */
  readonly server: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Headers that describe one connection, not the request: not forwarded. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

const endToEnd = (headers: IncomingHttpHeaders) => {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) out[name] = value;
  return out;
};

/** `host:port` of a CONNECT request, `[v6]` brackets removed; null when it is not one. */
function authority(target: string): { host: string; port: number } | null {
  const m = /^(\[[^\]]+\]|[^:[\]/]+):(\d{1,5})$/.exec(target);
  if (!m) return null;
  return { host: (m[1] as string).toLowerCase().replace(/^\[|\]$/g, ""), port: Number(m[2]) };
}

/**
 * A forwarding proxy on loopback for one scan's browser contexts: plain HTTP requests (absolute URLs) and CONNECT
 * tunnels (HTTPS, WebSockets) go to the address `addressOf` gives their host, on an allowed port; any other host
 * or port is answered 403 without a connection being made. Chromium resolves nothing itself, so these answers are
 * the only way its pages reach a site.
 */
export async function startPinnedProxy(options: PinnedProxyOptions): Promise<PinnedProxy> {
  const agent = new Agent({ keepAlive: true, maxSockets: 6 });
  const sockets = new Set<Socket>();
  const target = (host: string, port: number) => {
    const address = options.ports.has(port) ? options.addressOf(host) : null;
    if (address === null) options.onRefused?.(host, port);
    return address;
  };
  const server = createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      res.writeHead(400, { "content-type": "text/plain" }).end("not a proxy request\n");
      return;
    }
    const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, "");
    const port = Number(url.port || 80);
    const address = url.protocol === "http:" ? target(host, port) : null;
    if (address === null) {
      res.writeHead(403, { "content-type": "text/plain", connection: "close" }).end("refused by unirank\n");
      return;
    }
    const upstream = request(
      {
        host: address,
        port,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers: { ...endToEnd(req.headers), host: url.host },
        setHost: false,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
        answer.pipe(res);
        answer.on("error", () => res.destroy());
      },
    );
    // A site that cannot be reached is a failed connection for Chromium too, not a response of the proxy's.
    upstream.on("error", () => req.socket.destroy());
    req.pipe(upstream);
  });
  server.on("connect", (req, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    const to = authority(req.url ?? "");
    const address = to ? target(to.host, to.port) : null;
    if (!to || address === null) {
      client.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
      return;
    }
    const upstream = connect(to.port, address);
    sockets.add(upstream);
    upstream.on("close", () => {
      sockets.delete(upstream);
      client.destroy();
    });
    client.on("close", () => upstream.destroy());
    upstream.on("error", () => {
      if (client.writable && upstream.connecting)
        client.end("HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
      upstream.destroy();
    });
    upstream.on("connect", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
  });
  // Chromium tunnels WebSockets with CONNECT; an upgrade sent to the proxy itself is not forwarded.
  server.on("upgrade", (_req, socket: Socket) => socket.destroy());
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    server: `http://${PROXY_HOST}:${port}`,
    port,
    close: async () => {
      agent.destroy();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
