import { prepared } from "../db/prepared.ts";
import { UnirankError } from "../errors.ts";
import type { DB } from "../schema/database.ts";
import { hmacSha256Hex } from "../text/sha256.ts";
import { safeEqual } from "./api-key-format.ts";
import { redactPath } from "./audit-log.ts";
import { type AccessDB, accessDb } from "./tables.ts";

/**
 * HMAC request signing: `X-Timestamp: <unix seconds>` and
 * `X-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>\n<METHOD>\n<path with query>">`, keyed with the
 * key's signing secret (its UTF-8 text). Accepted within `skewSeconds` of server time either way, and once.
 */
export const SIGNATURE_SKEW_SECONDS = 300;

/** The signed text. */
export function signatureBase(timestamp: string, method: string, pathWithQuery: string): string {
  return `${timestamp}\n${method.toUpperCase()}\n${pathWithQuery}`;
}

/** `sha256=<hex>`: what a client puts in `X-Signature`. */
export function signRequest(
  secret: string,
  timestamp: string | number,
  method: string,
  pathWithQuery: string,
) {
  const hex = hmacSha256Hex(secret, signatureBase(String(timestamp), method, pathWithQuery));
  return `sha256=${hex}`;
}

export interface VerifySignatureInput {
  keyId: number;
  secret: string;
  timestamp: string | null;
  signature: string | null;
  method: string;
  /**
   * The request target, path and query string, as the server reads it: dot segments resolved and characters
   * outside the URL syntax percent-encoded (the runtime's URL parser does this before any of unirank runs).
   */
  pathWithQuery: string;
  now: Date;
  skewSeconds?: number;
}

const invalid = (message: string) => new UnirankError("INVALID_SIGNATURE", message);

/**
 * Checks a request's signature and records it so it is accepted once; throws INVALID_SIGNATURE when a header
 * is missing or malformed, the timestamp is outside the allowed skew, the HMAC differs (compared in constant
 * time), or the signature was seen before. The replay record expires when the timestamp would be stale anyway.
 */
export async function verifyRequestSignature(db: DB | AccessDB, input: VerifySignatureInput): Promise<void> {
  const skew = input.skewSeconds ?? SIGNATURE_SKEW_SECONDS;
  if (input.timestamp === null || input.signature === null) {
    throw invalid("This API key requires signed requests: send X-Timestamp and X-Signature");
  }
  const ts = input.timestamp.trim();
  if (!/^[0-9]{1,12}$/.test(ts)) throw invalid("X-Timestamp must be unix seconds");
  const nowSeconds = Math.floor(input.now.getTime() / 1000);
  if (Math.abs(nowSeconds - Number(ts)) > skew) {
    throw invalid(`X-Timestamp is more than ${skew} seconds away from server time`);
  }
  const given = input.signature.trim().toLowerCase();
  if (!/^sha256=[0-9a-f]{64}$/.test(given)) throw invalid("X-Signature must be sha256=<64 hex digits>");
  const expected = signRequest(input.secret, ts, input.method, input.pathWithQuery);
  if (!safeEqual(expected, given)) {
    throw invalid(
      `The request signature does not match; the signed target is the one the server reads: ${input.method.toUpperCase()} ${redactPath(input.pathWithQuery)}`,
    );
  }
  const expiresAt = (Number(ts) + skew + 1) * 1000;
  const [recorded] = await recordSignature(db as DB, [input.keyId, given, expiresAt]);
  if (!recorded) throw invalid("This signature was already used; sign each request once");
}

/** A signature's replay record, none when it is there already: written on every signed request, so compiled once. */
const recordSignature = prepared((db, arg: (i: number) => string | number) =>
  accessDb(db)
    .insertInto("signature_replays")
    .values({ key_id: arg(0) as number, signature: arg(1) as string, expires_at: arg(2) as number })
    .onConflict((oc) => oc.columns(["key_id", "signature"]).doNothing())
    .returning("key_id"),
);

/** Forgets signatures whose timestamps are stale (they would be refused as stale anyway). */
export async function pruneSignatureReplays(db: DB | AccessDB, now: Date): Promise<void> {
  await accessDb(db).deleteFrom("signature_replays").where("expires_at", "<", now.getTime()).execute();
}
