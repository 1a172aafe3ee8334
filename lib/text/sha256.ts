/**
 * SHA-256 and HMAC-SHA-256 (FIPS 180-4, RFC 2104), synchronous and runtime-neutral: Web Crypto's digest is
 * async, and the core hashes API keys and checks request signatures inside synchronous code. Where the runtime
 * offers Node's crypto without an import (`process.getBuiltinModule`, Node ≥ 22.3 and Bun) that native code is
 * used (on Bun, its one-shot digest for plain SHA-256); elsewhere (a browser) the plain implementation below.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const encoder = new TextEncoder();
const bytesOf = (data: string | Uint8Array): Uint8Array =>
  typeof data === "string" ? encoder.encode(data) : data;
const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/** The 32-byte SHA-256 digest of UTF-8 text or bytes. */
export function sha256(data: string | Uint8Array): Uint8Array {
  const input = bytesOf(data);
  const blocks = Math.ceil((input.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(input);
  padded[input.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bits = input.length * 8;
  view.setUint32(padded.length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(padded.length - 4, bits >>> 0);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  for (let block = 0; block < blocks; block++) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block * 64 + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = [h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!];
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] = h[0]! + a;
    h[1] = h[1]! + b;
    h[2] = h[2]! + c;
    h[3] = h[3]! + d;
    h[4] = h[4]! + e;
    h[5] = h[5]! + f;
    h[6] = h[6]! + g;
    h[7] = h[7]! + hh;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]!);
  return out;
}

/** HMAC-SHA-256 of a message under a key (both UTF-8 text or bytes). */
export function hmacSha256(key: string | Uint8Array, message: string | Uint8Array): Uint8Array {
  let k = bytesOf(key);
  if (k.length > 64) k = sha256(k);
  const inner = new Uint8Array(64 + bytesOf(message).length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    inner[i] = (k[i] ?? 0) ^ 0x36;
    outer[i] = (k[i] ?? 0) ^ 0x5c;
  }
  inner.set(bytesOf(message), 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}

/** Lower-case hexadecimal. */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

interface NativeHash {
  update(data: string | Uint8Array): NativeHash;
  digest(encoding: "hex"): string;
}
interface NativeCrypto {
  createHash(algorithm: "sha256"): NativeHash;
  createHmac(algorithm: "sha256", key: string | Uint8Array): NativeHash;
}

const native = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.("node:crypto") as NativeCrypto | undefined;

/**
 * Bun's one-shot SHA-256, where the runtime is Bun: a quarter of the time of a hasher object made for each digest
 * (a walk's cursor, an API key; docs/performance.md).
 */
const oneShot = (
  globalThis as { Bun?: { SHA256?: { hash(data: string | Uint8Array, encoding: "hex"): string } } }
).Bun?.SHA256;

/** SHA-256 in lower-case hex (native where the runtime has it). */
export function sha256Hex(data: string | Uint8Array): string {
  if (oneShot) return oneShot.hash(data, "hex");
  return native ? native.createHash("sha256").update(data).digest("hex") : toHex(sha256(data));
}

/** HMAC-SHA-256 in lower-case hex (native where the runtime has it). */
export function hmacSha256Hex(key: string | Uint8Array, message: string | Uint8Array): string {
  return native
    ? native.createHmac("sha256", key).update(message).digest("hex")
    : toHex(hmacSha256(key, message));
}
