import { isIP, connect as netConnect, type Socket } from "node:net";
import { type TLSSocket, connect as tlsConnect } from "node:tls";
import { ChunkedEnd, dechunk } from "./chunked-body.ts";
import { FetchError } from "./connection-pool.ts";
import type { ScanContext } from "./scan-context.ts";
import { secureContext } from "./tls-probe.ts";

/** One HTTP response as the scanner keeps it. */
export interface FetchedResponse {
  url: string;
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** The byte cap cut the body short. */
  truncated: boolean;
  /** Over HTTPS: the certificate is one a browser accepts (chain to a trusted root, dates, name); null over HTTP. */
  verified: boolean | null;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
export const MAX_REDIRECTS = 5;

/**
 * GET (or HEAD) one URL, no redirect followed, through the host queue, the address guard and the byte cap: the
 * one way the scanner reaches a site.
 */
export async function fetchOnce(
  url: string,
  ctx: ScanContext,
  method: "GET" | "HEAD" = "GET",
): Promise<FetchedResponse> {
  const u = new URL(url);
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new FetchError(`not an http(s) URL: ${url}`);
  const host = u.hostname.replace(/^\[|\]$/g, "");
  const address = await ctx.address(host);
  const secure = u.protocol === "https:";
  const port = u.port ? Number(u.port) : secure ? ctx.ports.https : ctx.ports.http;
  return ctx.hosts.run(host, () => request({ u, host, address, port, secure, method }, ctx));
}

/** GET a URL following at most 5 redirects; the chain starts with `url` and ends with the final URL. */
export async function fetchFollow(
  url: string,
  ctx: ScanContext,
  /** Stop before fetching a URL already known (its response is then the redirect's). */
  known?: (url: string) => boolean,
): Promise<{ chain: string[]; response: FetchedResponse }> {
  const chain = [url];
  let current = url;
  for (;;) {
    const response = await fetchOnce(current, ctx);
    const location = response.headers.location;
    if (!REDIRECTS.has(response.status) || !location) return { chain, response };
    if (chain.length > MAX_REDIRECTS)
      throw new FetchError(`more than ${MAX_REDIRECTS} redirects from ${url} (last to ${location})`);
    try {
      current = new URL(location, current).href;
    } catch {
      throw new FetchError(`redirect to an invalid URL: ${location}`);
    }
    chain.push(current);
    if (known?.(current)) return { chain, response };
  }
}

/** Where a full response ends: a byte count, the end of a chunked body, or the connection's close. */
type Framing = { kind: "length"; end: number } | { kind: "chunked"; body: ChunkedEnd } | { kind: "close" };

function framingOf(head: string, headEnd: number, method: string): { framing: Framing; reusable: boolean } {
  const status = Number(/^HTTP\/\d(?:\.\d)? (\d{3})/.exec(head)?.[1] ?? 0);
  const header = (name: string) => new RegExp(`\r\n${name}:[ \t]*([^\r\n]*)`, "i").exec(head)?.[1]?.trim();
  const reusable = !/\bclose\b/i.test(header("connection") ?? "") && /^HTTP\/1\.1 /.test(head);
  if (method === "HEAD" || status === 204 || status === 304 || (status >= 100 && status < 200))
    return { framing: { kind: "length", end: headEnd + 4 }, reusable };
  if (/\bchunked\b/i.test(header("transfer-encoding") ?? ""))
    return { framing: { kind: "chunked", body: new ChunkedEnd() }, reusable };
  const length = header("content-length");
  if (length && /^\d+$/.test(length))
    return { framing: { kind: "length", end: headEnd + 4 + Number(length) }, reusable };
  return { framing: { kind: "close" }, reusable: false };
}

const CRLFCRLF = Buffer.from("\r\n\r\n");
/** Room for a response's head. */
const HEAD_MAX_BYTES = 64 * 1024;
const idleError = () => {};

interface Target {
  u: URL;
  host: string;
  address: string;
  port: number;
  secure: boolean;
  method: "GET" | "HEAD";
}

/**
 * One request on a kept-alive or new connection. Every byte is looked at once: the end of the head is searched in
 * each new piece (with the three bytes before it), a chunked body is followed as it arrives, and the pieces are
 * joined once, at the end; at most the byte cap and 64 KiB for the head are read.
 */
function request(t: Target, ctx: ScanContext, fresh = false): Promise<FetchedResponse> {
  const { u, host, address, port, secure, method } = t;
  const key = `${secure ? "https" : "http"}:${host}:${address}:${port}`;
  const pooled = fresh ? undefined : ctx.pool.take(key);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let truncated = false;
    let settled = false;
    let headEnd = -1;
    let carry: Buffer = Buffer.alloc(0);
    let framing: Framing | null = null;
    let reusable = false;
    // The body cap plus room for the head; a HEAD reads a head only.
    const limit = method === "HEAD" ? HEAD_MAX_BYTES : ctx.maxBytes + HEAD_MAX_BYTES;
    const socket: Socket =
      pooled ??
      (secure
        ? tlsConnect({
            host: address,
            port,
            servername: isIP(host) ? undefined : host,
            rejectUnauthorized: false, // the certificate is scored on its own; the page is still read
            secureContext: secureContext(ctx.ca),
            ALPNProtocols: ["http/1.1"],
          })
        : netConnect({ host: address, port }));
    const send = () => {
      const hostHeader = u.port ? `${u.hostname}:${u.port}` : u.hostname;
      socket.write(
        `${method} ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${hostHeader}\r\nUser-Agent: ${ctx.userAgent}\r\n` +
          "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n" +
          "Accept-Encoding: identity\r\nConnection: keep-alive\r\n\r\n",
      );
    };
    const detach = () => {
      socket.off("data", onData);
      socket.off("end", onEnd);
      socket.off("close", onEnd);
      socket.off("error", onError);
      socket.off(secure ? "secureConnect" : "connect", send);
    };
    const finish = (error: Error | null, complete = false) => {
      if (settled) return;
      settled = true;
      const verified = secure ? (socket as TLSSocket).authorized === true : null;
      clearTimeout(timer);
      ctx.signal.removeEventListener("abort", onAbort);
      detach();
      if (complete && reusable && !truncated) {
        socket.on("error", idleError);
        ctx.pool.put(key, socket);
      } else socket.destroy();
      if (error) {
        // A kept-alive connection the server closed meanwhile: once more on a new one.
        if (pooled && received === 0 && !ctx.signal.aborted) request(t, ctx, true).then(resolve, reject);
        else reject(error);
        return;
      }
      try {
        const response = parseResponse(
          u.href,
          Buffer.concat(chunks, received),
          truncated,
          ctx.maxBytes,
          method,
        );
        response.verified = verified;
        resolve(response);
      } catch (e) {
        reject(e);
      }
    };
    const onData = (chunk: Buffer) => {
      const offset = received;
      chunks.push(chunk);
      received += chunk.length;
      if (headEnd < 0) {
        // The head's end, searched in this piece and the three bytes before it.
        const window = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
        const found = window.indexOf(CRLFCRLF);
        if (found < 0) carry = window.subarray(Math.max(0, window.length - 3));
        else {
          headEnd = offset - carry.length + found;
          const head = Buffer.concat(chunks, received).toString("latin1", 0, headEnd);
          ({ framing, reusable } = framingOf(head, headEnd, method));
          if (framing.kind === "chunked" && framing.body.feed(Buffer.concat(chunks, received), headEnd + 4))
            return finish(null, true);
        }
      } else if (framing?.kind === "chunked" && framing.body.feed(chunk)) return finish(null, true);
      if (framing?.kind === "length" && received >= framing.end) return finish(null, true);
      if (received > limit) {
        truncated = true;
        finish(null);
      }
    };
    const onEnd = () =>
      received === 0
        ? finish(new FetchError(`${u.href}: the connection closed without an answer`))
        : finish(null);
    const onError = (e: Error) =>
      finish(new FetchError(`${u.href}: ${(e as NodeJS.ErrnoException).code ?? ""} ${e.message}`.trim()));
    const onAbort = () => finish(new FetchError(`scan stopped: ${String(ctx.signal.reason ?? "aborted")}`));
    const timer = setTimeout(
      () => finish(new FetchError(`${u.href} did not answer within ${ctx.requestTimeoutMs / 1000} s`)),
      ctx.requestTimeoutMs,
    );
    if (ctx.signal.aborted) return onAbort();
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    if (pooled) socket.off("error", idleError);
    socket.on("data", onData);
    socket.on("end", onEnd);
    socket.on("close", onEnd);
    socket.on("error", onError);
    if (pooled) send();
    else socket.on(secure ? "secureConnect" : "connect", send);
  });
}

/** Parses an HTTP/1.x response (Content-Length, chunked or read to the end; no body for HEAD). */
export function parseResponse(
  url: string,
  raw: Buffer,
  truncated: boolean,
  maxBytes: number,
  method: "GET" | "HEAD" = "GET",
): FetchedResponse {
  const headEnd = raw.indexOf(CRLFCRLF);
  if (headEnd < 0) throw new FetchError(`${url}: no complete HTTP response`);
  const [statusLine = "", ...lines] = raw.subarray(0, headEnd).toString("latin1").split("\r\n");
  const m = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(statusLine);
  if (!m) throw new FetchError(`${url}: not an HTTP response`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(":");
    if (i <= 0) continue;
    const name = line.slice(0, i).trim().toLowerCase();
    const value = line.slice(i + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  let body = raw.subarray(headEnd + 4);
  if (method === "HEAD") body = body.subarray(0, 0);
  else if (/\bchunked\b/i.test(headers["transfer-encoding"] ?? "")) body = dechunk(body, maxBytes + 1);
  else if (headers["content-length"] && /^\d+$/.test(headers["content-length"]))
    body = body.subarray(0, Number(headers["content-length"]));
  if (body.length > maxBytes) {
    body = body.subarray(0, maxBytes);
    truncated = true;
  }
  return { url, status: Number(m[1]), headers, body, truncated, verified: null };
}
