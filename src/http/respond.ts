import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { markedBySize } from "./large-answers.ts";
import { scratchUtf8 } from "./scratch-utf8.ts";
import type { AnswerBody } from "./spliced-json/answer-body.ts";

/** Turns a JSON body into a Response with ETag/304, Cache-Control and compression. */

const MIN_COMPRESS_BYTES = 1024;

/** Bun's wyhash over the UTF-8 bytes; SHA-1, much slower, where the runtime has no such hash (docs/performance.md). */
const fastHash = (globalThis as { Bun?: { hash(data: string | Uint8Array): bigint | number } }).Bun?.hash;

/** A strong entity tag: 64 bits of a hash of the body, enough to tell one representation from the next. */
export function etagOf(body: string | Uint8Array): string {
  if (fastHash) return `"${fastHash(body).toString(16).padStart(16, "0")}"`;
  return `"${createHash("sha1").update(body).digest("base64url").slice(0, 27)}"`;
}

function preferredEncoding(accept: string | null): "br" | "gzip" | null {
  if (!accept) return null;
  const offered = new Map<string, number>();
  for (const part of accept.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    offered.set(name ?? "", q ? Number(q.slice(2)) : 1);
  }
  const weight = (name: string) => offered.get(name) ?? offered.get("*") ?? 0;
  if (weight("br") > 0 && weight("br") >= weight("gzip")) return "br";
  if (weight("gzip") > 0) return "gzip";
  return null;
}

export interface JsonResponseOptions {
  status: number;
  cache: "public" | "no-store";
  /**
   * Headers every answer of its kind carries (CORS, a route's own): one object, kept from answer to answer, so that
   * the headers it makes with the fields below are made once (`headerTemplate`).
   */
  constant?: Readonly<Record<string, string>> | undefined;
  /**
   * The answer's own headers (request id, rate-limit fields, a list's links), in an object made for this answer: its
   * tag and encoding are added to it. They win over `constant`.
   */
  headers?: Record<string, string> | undefined;
  /** Default `application/json; charset=utf-8`. */
  contentType?: string | undefined;
  /**
   * Where the part of the body that the ETag hashes begins, in bytes, when what comes before changes on every answer
   * (the v2 envelope's timestamp); the whole body by default.
   */
  etagFrom?: number | undefined;
  /** The ETag itself, when already known (a cached answer's). */
  etag?: string | undefined;
  /** Default `Accept-Encoding`. */
  vary?: string | undefined;
}

/** The entity tag of a 200 answer: `options.etag`, or a hash of the body's UTF-8 from `etagFrom` on. */
function entityTag(utf8: () => Uint8Array, options: JsonResponseOptions): string | undefined {
  if (options.status !== 200) return undefined;
  return options.etag ?? etagOf(options.etagFrom ? utf8().subarray(options.etagFrom) : utf8());
}

/**
 * Strong validators differ per representation (RFC 9110 §8.8.3): the identity body keeps the tag of its
 * content, a compressed body gets `-gzip` or `-br` appended inside the quotes.
 */
function representationTag(tag: string | undefined, encoding: "br" | "gzip" | null): string | undefined {
  if (tag === undefined || encoding === null) return tag;
  return `${tag.slice(0, -1)}-${encoding}"`;
}

/** True when `If-None-Match` lists `etag` (strong or weak) or `*`. */
function notModified(request: Request, etag: string): boolean {
  const inm = request.headers.get("If-None-Match");
  if (inm === null) return false;
  return inm.split(",").some((t) => {
    const tag = t.trim();
    return tag === etag || tag === `W/${etag}` || tag === "*";
  });
}

const NONE: Readonly<Record<string, string>> = Object.freeze({});
/** The templates of each `constant`, by content type and `Vary`: [public, no-store]. */
const templates = new WeakMap<object, Map<string, Map<string, [Headers?, Headers?]>>>();

/**
 * The headers an answer starts from: `constant` with its content type, caching and `Vary`, made once per such
 * combination and copied by each `Response` (a `Headers` copied and given the answer's few own fields costs less
 * than the same fields as a plain object; docs/performance.md). Never handed out: each answer has its copy.
 */
function headerTemplate(
  constant: Readonly<Record<string, string>>,
  contentType: string,
  cache: JsonResponseOptions["cache"],
  vary: string,
): Headers {
  let byType = templates.get(constant);
  if (byType === undefined) {
    byType = new Map();
    templates.set(constant, byType);
  }
  let byVary = byType.get(contentType);
  if (byVary === undefined) {
    byVary = new Map();
    byType.set(contentType, byVary);
  }
  let pair = byVary.get(vary);
  if (pair === undefined) {
    pair = [];
    byVary.set(vary, pair);
  }
  const slot = cache === "public" ? 0 : 1;
  let template = pair[slot];
  if (template === undefined) {
    template = new Headers({
      ...constant,
      "Content-Type": contentType,
      "Cache-Control": cache === "public" ? "public, max-age=60" : "no-store",
      Vary: vary,
      "X-Content-Type-Options": "nosniff",
    });
    pair[slot] = template;
  }
  return template;
}

/** A response of `body` with the template's headers and then the answer's own (which win). */
function answered(
  body: string | Uint8Array | null,
  status: number,
  template: Headers,
  own: Record<string, string>,
  utf8Bytes?: number,
): Response {
  const response = new Response(body as BodyInit | null, { status, headers: template });
  const headers = response.headers;
  for (const name in own) headers.set(name, own[name] as string);
  return markedBySize(response, body, utf8Bytes);
}

export function jsonResponse(request: Request, body: AnswerBody, options: JsonResponseOptions): Response {
  const template = headerTemplate(
    options.constant ?? NONE,
    options.contentType ?? "application/json; charset=utf-8",
    options.cache,
    options.vary ?? "Accept-Encoding",
  );
  const headers: Record<string, string> = options.headers ?? {};
  // The UTF-8 read here (hash, length, compression, a body in pieces) is made in a reused buffer (`scratchUtf8`), so
  // an answer allocates no array of its size, and only where it is read: a cached answer has its tag already.
  let bytes: Uint8Array | undefined;
  const utf8 = () => {
    bytes ??= scratchUtf8(body);
    return bytes;
  };
  const accept = request.headers.get("Accept-Encoding");
  const encoding =
    accept !== null && utf8().byteLength >= MIN_COMPRESS_BYTES ? preferredEncoding(accept) : null;
  const etag = representationTag(entityTag(utf8, options), encoding);
  if (etag !== undefined) {
    headers.ETag = etag;
    if (notModified(request, etag)) return answered(null, 304, template, headers);
  }
  // A text goes to the server as it is (it writes it out as UTF-8 itself); a body in pieces as the view of the
  // reused buffer they were written into, which the `Response` copies (docs/performance.md).
  let payload: string | Uint8Array = typeof body === "string" ? body : utf8();
  if (encoding === "br") {
    payload = brotliCompressSync(utf8(), { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
  } else if (encoding === "gzip") {
    payload = gzipSync(utf8(), { level: 6 });
  }
  if (encoding) headers["Content-Encoding"] = encoding;
  if (request.method === "HEAD") {
    // What GET would send; a GET's own length is set by the server from its body.
    headers["Content-Length"] = String(typeof payload === "string" ? utf8().byteLength : payload.byteLength);
    return answered(null, options.status, template, headers);
  }
  return answered(payload, options.status, template, headers, bytes?.byteLength);
}
