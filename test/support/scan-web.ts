import { writeFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage } from "node:http";
import { createSecureServer, type Http2ServerRequest } from "node:http2";
import { connect, createServer as createNetServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer as createTlsServer } from "node:tls";
import dns2 from "dns2";
import { generate } from "selfsigned";
import { dropGoneClients } from "./loopback-dns.ts";

/**
 * A loopback "web of universities" for scanner tests: each fixture site gets its own loopback address
 * (127.0.0.N) with an HTTPS and an HTTP server on shared ports, certificates from a test CA made here, and
 * a DNS server on a loopback port answering A, TXT (SPF, DMARC, MTA-STS), MX and the AD flag.
 * Point the scanner at it with `resolver`, `ports`, `ca` (or `caFile`) and `allowPrivateTargets`.
 */

export type CertKind = "good" | "expired" | "wrong-name" | "self-signed";
type Req = IncomingMessage | Http2ServerRequest;
/** The response methods fixtures use, common to HTTP/1 and HTTP/2 compatibility responses. */
export interface Res {
  writeHead(status: number, headers?: Record<string, string | string[]>): unknown;
  setHeader(name: string, value: string): unknown;
  write(chunk: string | Uint8Array): unknown;
  end(chunk?: string | Uint8Array): unknown;
}
export type Handler = (req: Req, res: Res, site: FixtureSite) => void;

export interface FixtureSite {
  domain: string;
  cert?: CertKind;
  /** Highest TLS version the HTTPS server accepts (default TLS 1.3). */
  maxTls?: "TLSv1.2" | "TLSv1.3";
  /** Also answer for every `*.<domain>` name (DNS and certificate): many universities on one server pair. */
  wildcard?: boolean;
  /** Accept TCP and never answer, on both ports. */
  tarpit?: boolean;
  /**
   * A TLS terminator: the HTTPS port decrypts and forwards the bytes to this plain-HTTP server (the HTTP port
   * still redirects to HTTPS), as a reverse proxy in front of an application would.
   */
  proxyTo?: { host: string; port: number };
  https?: Handler;
  /** Default: a redirect to the HTTPS home page. */
  http?: Handler;
  dns?: {
    spf?: string[];
    dmarc?: string[];
    mx?: string[];
    mtaSts?: string[];
    dnssec?: boolean;
    /** TXT records of other names (full names), e.g. the targets of SPF includes. */
    txt?: Record<string, string[]>;
    /** Other TXT records of the domain itself (verification tokens …), beside the SPF ones. */
    domainTxt?: string[];
  };
}

export interface ScanWeb {
  resolver: { host: string; port: number };
  ports: { http: number; https: number };
  /** The test CA, PEM, and a file holding it (for `--ca-file`). */
  ca: string;
  caFile: string;
  /** Loopback address of each site. */
  addresses: Map<string, string>;
  /** Requests seen, as `domain path user-agent`. */
  requests: string[];
  /** DNS questions seen, as `udp|tcp TYPE name`. */
  dnsQueries: string[];
  close(): Promise<void>;
}

/** The scanner settings that point a scan in this process at this web (resolver, ports, CA; no delay; 3 s). */
export function scanSettings(web: ScanWeb) {
  return {
    resolver: web.resolver,
    ports: web.ports,
    ca: [web.ca],
    allowPrivateTargets: true,
    delayMs: 0,
    requestTimeoutMs: 3000, // generous: the machine may be busy
  };
}

/** The options that point `unirank scan` at this web (its resolver, ports and CA; no delay between requests). */
export function scanCliArgs(web: ScanWeb): string[] {
  return [
    "--resolver",
    `${web.resolver.host}:${web.resolver.port}`,
    "--ports",
    `${web.ports.http},${web.ports.https}`,
    "--ca-file",
    web.caFile,
    "--allow-private-targets",
    "--delay",
    "0",
  ];
}

/** The options that point `unirank serve`'s background scans at this web (no availability probes). */
export function serveScanArgs(web: ScanWeb): string[] {
  return [
    "--probe-every",
    "0",
    "--scan-resolver",
    `${web.resolver.host}:${web.resolver.port}`,
    "--scan-ports",
    `${web.ports.http},${web.ports.https}`,
    "--scan-ca-file",
    web.caFile,
    "--scan-allow-private-targets",
  ];
}

/** Sends a page: status 200, `headers`, an HTML body. */
export function page(res: Res, body: string, headers: Record<string, string> = {}, status = 200): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", ...headers });
  res.end(body);
}

/** A handler answering by path (the query string ignored), 404 for any other path. */
export function routes(table: Record<string, Handler>): Handler {
  return (req, res, site) => {
    const path = String(req.url ?? "/").split("?")[0] as string;
    const handler = table[path];
    if (handler) handler(req, res, site);
    else page(res, "<html><body>not found</body></html>", {}, 404);
  };
}

export function redirect(res: Res, location: string, status = 301): void {
  res.writeHead(status, { location });
  res.end();
}

const DAY = 86_400_000;

async function makeCa() {
  return generate([{ name: "commonName", value: "unirank test CA" }], {
    keyType: "ec",
    algorithm: "sha256",
    notBeforeDate: new Date(Date.now() - DAY),
    notAfterDate: new Date(Date.now() + 3650 * DAY),
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
}

async function makeCert(
  domain: string,
  kind: CertKind,
  ca: { private: string; cert: string },
  wildcard = false,
) {
  const names =
    kind === "wrong-name"
      ? ["elsewhere.test"]
      : [domain, `mta-sts.${domain}`, `www.${domain}`, ...(wildcard ? [`*.${domain}`] : [])];
  const expired = kind === "expired";
  return generate([{ name: "commonName", value: names[0] as string }], {
    keyType: "ec",
    algorithm: "sha256",
    notBeforeDate: new Date(Date.now() - (expired ? 400 : 1) * DAY),
    notAfterDate: new Date(Date.now() + (expired ? -10 : 365) * DAY),
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "subjectAltName", altNames: names.map((value) => ({ type: 2 as const, value })) },
    ],
    ca: kind === "self-signed" ? undefined : { key: ca.private, cert: ca.cert },
  });
}

const listen = (server: Server | ReturnType<typeof createSecureServer>, host: string, port: number) =>
  new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as { port: number }).port);
    });
  });

const hostOf = (req: Req) => String(req.headers.host ?? req.headers[":authority"] ?? "").replace(/:\d+$/, "");

/** Starts the fixture web; `sites` get 127.0.0.2, 127.0.0.3 … in order. */
export async function startScanWeb(sites: FixtureSite[]): Promise<ScanWeb> {
  const ca = await makeCa();
  const certs = new Map<string, { private: string; cert: string }>();
  for (const s of sites)
    if (!s.tarpit) certs.set(s.domain, await makeCert(s.domain, s.cert ?? "good", ca, s.wildcard));
  const addresses = new Map(sites.map((s, i) => [s.domain, `127.0.0.${i + 2}`]));
  const requests: string[] = [];
  const held = new Set<Socket>();

  const build = () =>
    sites.map((site) => {
      if (site.tarpit) {
        const hold = (socket: Socket) => {
          held.add(socket);
          socket.on("close", () => held.delete(socket));
          socket.on("error", () => {});
        };
        return { site, https: createNetServer(hold), http: createNetServer(hold) };
      }
      const cert = certs.get(site.domain) as { private: string; cert: string };
      const http = createHttpServer((req, res) => {
        requests.push(`${hostOf(req)} ${req.url} ${req.headers["user-agent"]}`);
        (site.http ?? ((q, r) => redirect(r, `https://${hostOf(q)}${q.url}`)))(req, res, site);
      });
      const upstream = site.proxyTo;
      if (upstream) {
        const terminator = createTlsServer({ key: cert.private, cert: cert.cert }, (socket) => {
          const app = connect(upstream.port, upstream.host);
          for (const s of [socket, app]) {
            held.add(s);
            s.on("close", () => held.delete(s));
            s.on("error", () => {
              socket.destroy();
              app.destroy();
            });
          }
          socket.pipe(app).pipe(socket);
        });
        return { site, https: terminator as unknown as Server, http };
      }
      const https = createSecureServer(
        { key: cert.private, cert: cert.cert, allowHTTP1: true, maxVersion: site.maxTls ?? "TLSv1.3" },
        (req, res: Res) => {
          requests.push(`${hostOf(req)} ${req.url} ${req.headers["user-agent"]}`);
          (site.https ?? ((_, r) => page(r, "<html><body>ok</body></html>")))(req, res, site);
        },
      );
      return { site, https, http };
    });

  let servers = build();
  let ports = { http: 0, https: 0 };
  for (let attempt = 0; ; attempt++) {
    try {
      for (const { site, https, http } of servers) {
        const ip = addresses.get(site.domain) as string;
        ports.https = await listen(https as Server, ip, ports.https);
        ports.http = await listen(http as Server, ip, ports.http);
      }
      break;
    } catch (e) {
      // Another process holds the port on one of the addresses: start over on fresh ports.
      for (const s of servers) {
        s.https.close();
        s.http.close();
      }
      if (attempt >= 5) throw e;
      servers = build();
      ports = { http: 0, https: 0 };
    }
  }

  const bySite = new Map(sites.map((s) => [s.domain, s]));
  const wildcards = sites.filter((s) => s.wildcard);
  const extraTxt = new Map(
    sites
      .flatMap((s) => Object.entries(s.dns?.txt ?? {}))
      .map(([name, records]) => [name.toLowerCase(), records]),
  );
  const dnsQueries: string[] = [];
  const { Packet } = dns2;
  // A TXT string holds at most 255 bytes: longer records go out as several strings (joined again by readers).
  const strings = (text: string) => text.match(/[\s\S]{1,255}/g) ?? [""];
  const handle: dns2.DnsHandler = (request, reply, client) => {
    // A client that gave up (a scan past its time-out) no longer listens: its answer is dropped, as on a network.
    const send = (r: typeof response) => {
      Promise.resolve(reply(r)).catch(() => {});
    };
    const response = Packet.createResponseFromRequest(request);
    const q = request.questions[0];
    if (!q) return send(response);
    const name = q.name.toLowerCase();
    const transport = typeof (client as { write?: unknown }).write === "function" ? "tcp" : "udp";
    dnsQueries.push(
      `${transport} ${Object.keys(Packet.TYPE).find((k) => Packet.TYPE[k as keyof typeof Packet.TYPE] === q.type)} ${name}`,
    );
    const add = (type: number, data: Record<string, unknown>) =>
      response.answers.push({ name: q.name, type, class: Packet.CLASS.IN, ttl: 60, ...data } as never);
    const extra = extraTxt.get(name);
    if (extra) {
      if (q.type === Packet.TYPE.TXT) for (const text of extra) add(Packet.TYPE.TXT, { data: strings(text) });
      return send(response);
    }
    const base = name.replace(/^(_dmarc|_mta-sts|mta-sts|www)\./, "");
    const site = bySite.get(base) ?? wildcards.find((w) => base.endsWith(`.${w.domain}`));
    if (!site) {
      response.header.rcode = 3; // NXDOMAIN
      return send(response);
    }
    (response.header as unknown as { ad: number }).ad = site.dns?.dnssec ? 1 : 0;
    if (q.type === Packet.TYPE.A && (name === base || name === `mta-sts.${base}` || name === `www.${base}`))
      add(Packet.TYPE.A, { address: addresses.get(site.domain) });
    if (q.type === Packet.TYPE.TXT) {
      const txt =
        name === base
          ? [...(site.dns?.spf ?? []), ...(site.dns?.domainTxt ?? [])]
          : name === `_dmarc.${base}`
            ? (site.dns?.dmarc ?? [])
            : name === `_mta-sts.${base}`
              ? (site.dns?.mtaSts ?? [])
              : [];
      for (const text of txt) add(Packet.TYPE.TXT, { data: strings(text) });
    }
    if (q.type === Packet.TYPE.MX && name === base)
      for (const exchange of site.dns?.mx ?? []) add(Packet.TYPE.MX, { exchange, priority: 10 });
    send(response);
  };
  // UDP and TCP on one port (RFC 7766): a truncated UDP answer is asked again over TCP.
  let udpServer: ReturnType<typeof dns2.createServer> | undefined;
  let tcpServer: ReturnType<typeof dns2.createServer> | undefined;
  let dnsPort = 0;
  for (let attempt = 0; ; attempt++) {
    udpServer = dns2.createServer({ udp: true, handle });
    dropGoneClients(udpServer);
    await udpServer.listen({ udp: { port: 0, address: "127.0.0.1" } });
    dnsPort = (udpServer.addresses().udp as { port: number }).port;
    tcpServer = dns2.createServer({ tcp: true, handle });
    // dns2 passes the TCP server's errors on to its own emitter, where one unheard is thrown: the port taken by
    // another process is answered below, by trying again.
    tcpServer.on("error", () => {});
    const tcp = (tcpServer as unknown as { servers: { tcp: Server } }).servers.tcp;
    const listening = await new Promise<boolean>((resolve) => {
      tcp.once("error", () => resolve(false));
      tcp.listen(dnsPort, "127.0.0.1", () => resolve(true));
    });
    if (listening) break;
    await udpServer.close();
    if (attempt >= 5) throw new Error("no port free for the DNS server on both UDP and TCP");
  }

  const caFile = join(tmpdir(), `unirank-scan-web-ca-${process.pid}-${Date.now()}.pem`);
  writeFileSync(caFile, ca.cert);
  return {
    resolver: { host: "127.0.0.1", port: dnsPort },
    dnsQueries,
    ports,
    ca: ca.cert,
    caFile,
    addresses,
    requests,
    async close() {
      for (const socket of held) socket.destroy();
      await Promise.all(
        servers
          .flatMap((s) => [s.https, s.http])
          .map((srv) => new Promise<void>((r) => srv.close(() => r()))),
      );
      await Promise.all([udpServer?.close(), tcpServer?.close()]);
    },
  };
}
