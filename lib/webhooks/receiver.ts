/**
 * The receiver side of unirank webhooks (`unirank/webhooks`): signature verification and a ready
 * `(Request) => Promise<Response>` handler. Web APIs only (Web Crypto, Request/Response, TextEncoder), so it
 * runs unchanged on Node ≥ 22, Bun, Deno and edge runtimes; nothing else of unirank is imported.
 */

/** The body of a `scan.completed` delivery, exactly as sent. */
export interface ScanCompletedEvent {
  event: "scan.completed";
  /** When the event was recorded, ISO 8601 with offset. */
  timestamp: string;
  data: {
    scan_id: number;
    university_id: number;
    domain: string;
    overall_score: number | null;
    /** ISO 8601 with offset. */
    completed_at: string;
  };
}

export type WebhookEvent = ScanCompletedEvent;

/** Header names, as sent. */
export const SIGNATURE_HEADER = "X-Webhook-Signature";
export const EVENT_HEADER = "X-Webhook-Event";
export const DELIVERY_HEADER = "X-Webhook-Delivery";

const encoder = new TextEncoder();

const bytesOf = (body: string | Uint8Array): Uint8Array =>
  typeof body === "string" ? encoder.encode(body) : body;

async function hmacSha256(secret: string, body: string | Uint8Array): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, bytesOf(body) as BufferSource));
}

const toHex = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** `sha256=<hex HMAC-SHA256 of the raw body keyed with the secret>`, the `X-Webhook-Signature` value. */
export async function signWebhookBody(secret: string, rawBody: string | Uint8Array): Promise<string> {
  return `sha256=${toHex(await hmacSha256(secret, rawBody))}`;
}

/**
 * True when `header` is `sha256=<hex>` and matches the HMAC of the exact raw body. The comparison of the
 * 32 bytes is constant-time (every byte is compared, no early exit). Pass the body as received, before any
 * JSON parsing: re-serialised JSON will not match.
 */
export async function verifyWebhookSignature(
  secret: string,
  rawBody: string | Uint8Array,
  header: string | null | undefined,
): Promise<boolean> {
  if (typeof header !== "string") return false;
  const m = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!m?.[1]) return false;
  const given = new Uint8Array(32);
  for (let i = 0; i < 32; i++) given[i] = Number.parseInt(m[1].slice(i * 2, i * 2 + 2), 16);
  const expected = await hmacSha256(secret, rawBody);
  let diff = 0;
  for (let i = 0; i < 32; i++) diff |= (given[i] ?? 0) ^ (expected[i] ?? 0);
  return diff === 0;
}

export interface WebhookContext {
  /** `X-Webhook-Delivery`: the same on every retry of one delivery; use it to ignore duplicates. */
  deliveryId: string | null;
  request: Request;
}

export interface WebhookHandlerOptions {
  secret: string;
  /**
   * Called with the parsed event once the signature holds. Return nothing for `204`, or your own Response.
   * A throw answers `500`, so unirank retries the delivery later.
   */
  onEvent: (event: WebhookEvent, context: WebhookContext) => unknown;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/**
 * A ready handler for any Web-standard server (`Bun.serve`, Deno, Hono, Node adapters): `405` for anything
 * but POST, `403` when the signature does not verify, `400` for a body that is not JSON, then `onEvent`.
 */
export function webhookHandler(options: WebhookHandlerOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== "POST") return json(405, { error: "method not allowed" });
    const raw = new Uint8Array(await request.arrayBuffer());
    if (!(await verifyWebhookSignature(options.secret, raw, request.headers.get(SIGNATURE_HEADER)))) {
      return json(403, { error: "invalid signature" });
    }
    let event: WebhookEvent;
    try {
      event = JSON.parse(new TextDecoder().decode(raw)) as WebhookEvent;
    } catch {
      return json(400, { error: "body is not JSON" });
    }
    try {
      const answer = await options.onEvent(event, {
        deliveryId: request.headers.get(DELIVERY_HEADER),
        request,
      });
      return answer instanceof Response ? answer : new Response(null, { status: 204 });
    } catch {
      return json(500, { error: "handler failed" });
    }
  };
}
