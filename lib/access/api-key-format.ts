import { sha256, sha256Hex } from "../text/sha256.ts";

/**
 * API key format: `urk_` + 30 random base62 characters (~178 bits) + a 6-character base62 checksum of the
 * rest. The prefix makes a leaked key easy to grep for (and for secret scanners to spot); the checksum lets
 * a typo or a made-up value be rejected without a database read.
 */
export const API_KEY_PREFIX = "urk_";
export const SIGNING_SECRET_PREFIX = "urs_";
const BODY_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const WELL_FORMED = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);
/**
 * Matches anything that may be key material, for redaction: the prefix of a key or of a signing secret in any
 * case (`urk_`, `URK_`, `urs_` …) and 16 or more base62 characters (a key's body has 36, a secret's 40; a
 * truncated or mistyped one is still mostly secret).
 */
export const API_KEY_PATTERN = /ur[ks]_[0-9A-Za-z]{16,}/gi;
const KEY_PREFIXES = /ur[ks]_/i;

/** Whether text holds the prefix of a key or signing secret, in any case (the quick test before redacting). */
export function mentionsKeyPrefix(text: string): boolean {
  return KEY_PREFIXES.test(text);
}

/** Text with every key-shaped value replaced by `urk_REDACTED` (`urs_REDACTED` for a signing secret). */
export function redactKeyMaterial(text: string): string {
  if (!mentionsKeyPrefix(text)) return text;
  return text.replace(API_KEY_PATTERN, (m) => `${m.slice(0, 4).toLowerCase()}REDACTED`);
}

/** Uniform random base62 text (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

function checksum(text: string): string {
  const digest = sha256(text);
  let n = new DataView(digest.buffer).getUint32(0);
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/** A new random API key. */
export function generateApiKey(): string {
  const head = API_KEY_PREFIX + randomBase62(BODY_LENGTH);
  return head + checksum(head);
}

/** A new signing secret (`urs_` + 40 base62 characters, ~238 bits). */
export function generateSigningSecret(): string {
  return SIGNING_SECRET_PREFIX + randomBase62(40);
}

/** Shape and checksum only (no database): false for typos, truncations, made-up or oversized values. */
export function isWellFormedApiKey(value: string): boolean {
  if (value.length !== API_KEY_LENGTH || !WELL_FORMED.test(value)) return false;
  const head = value.slice(0, API_KEY_LENGTH - CHECKSUM_LENGTH);
  return safeEqual(checksum(head), value.slice(API_KEY_LENGTH - CHECKSUM_LENGTH));
}

/** What is stored: SHA-256 hex. Keys carry ~178 random bits, so a fast hash is enough (no dictionary to try). */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** The part shown in lists: `urk_` and 6 characters. */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 6);
}

const encoder = new TextEncoder();

/** Constant-time string comparison (length is not secret). */
export function safeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}
