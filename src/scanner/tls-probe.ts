import { X509Certificate } from "node:crypto";
import { isIP } from "node:net";
import {
  type ConnectionOptions,
  connect,
  createSecureContext,
  rootCertificates,
  type SecureContext,
  type SecureVersion,
} from "node:tls";
import type { TlsObservation, TlsVersions } from "../../lib/scanner/index.ts";
import type { ScanContext } from "./scan-context.ts";

const EMPTY: Omit<TlsObservation, "connected" | "error"> = {
  authorized: false,
  authorization_error: null,
  name_matches: false,
  subject: null,
  issuer: null,
  valid_from: null,
  valid_to: null,
  key_type: null,
  key_bits: null,
  protocol: null,
  alpn: null,
};

/** Secure contexts by trusted CAs and versions: building one parses every root certificate, so it is done once. */
const contexts = new Map<string, SecureContext>();

export function secureContext(extraCa: string[], min?: SecureVersion, max?: SecureVersion): SecureContext {
  const key = `${min}-${max}-${extraCa.join("")}`;
  let context = contexts.get(key);
  if (!context) {
    context = createSecureContext({
      ca: extraCa.length > 0 ? [...rootCertificates, ...extraCa] : undefined,
      minVersion: min,
      maxVersion: max,
    });
    if (contexts.size > 16) contexts.clear();
    contexts.set(key, context);
  }
  return context;
}

/** Opens one TLS connection and hands the socket to `inspect` once the handshake is done. */
async function handshake<T>(
  host: string,
  ctx: ScanContext,
  options: ConnectionOptions,
  inspect: (socket: ReturnType<typeof connect>) => T,
): Promise<T> {
  const address = await ctx.address(host);
  return ctx.hosts.run(
    host,
    () =>
      new Promise<T>((resolve, reject) => {
        const socket = connect({
          host: address,
          port: ctx.ports.https,
          servername: isIP(host) ? undefined : host,
          rejectUnauthorized: false,
          secureContext: secureContext(ctx.ca, options.minVersion, options.maxVersion),
          ALPNProtocols: options.ALPNProtocols,
        });
        const done = (error: Error | null, value?: T) => {
          clearTimeout(timer);
          socket.destroy();
          if (error) reject(error);
          else resolve(value as T);
        };
        const timer = setTimeout(
          () => done(new Error(`no TLS handshake within ${ctx.requestTimeoutMs / 1000} s`)),
          ctx.requestTimeoutMs,
        );
        if (ctx.signal.aborted) return done(new Error("scan stopped"));
        socket.on("secureConnect", () => {
          try {
            done(null, inspect(socket));
          } catch (e) {
            done(e as Error);
          }
        });
        socket.on("error", (e) => done(e));
      }),
  );
}

const dn = (text: string | undefined) => (text ? text.replace(/\n/g, ", ") : null);

/** The certificate and the negotiated protocol of `host`'s HTTPS server (offering h2 and http/1.1). */
export async function probeCertificate(host: string, ctx: ScanContext): Promise<TlsObservation> {
  try {
    return await handshake(host, ctx, { ALPNProtocols: ["h2", "http/1.1"] }, (socket) => {
      const peer = socket.getPeerCertificate(false);
      if (!peer?.raw) throw new Error("the server sent no certificate");
      const x = new X509Certificate(peer.raw);
      const key = x.publicKey;
      const details = key.asymmetricKeyDetails ?? {};
      const type =
        key.asymmetricKeyType === "rsa"
          ? "RSA"
          : key.asymmetricKeyType === "ec"
            ? "EC"
            : (key.asymmetricKeyType ?? null);
      const curveBits: Record<string, number> = {
        prime256v1: 256,
        "P-256": 256,
        secp384r1: 384,
        "P-384": 384,
        secp521r1: 521,
        "P-521": 521,
      };
      const bits =
        type === "RSA" ? (details.modulusLength ?? null) : (curveBits[details.namedCurve ?? ""] ?? null);
      const error = socket.authorizationError;
      return {
        connected: true,
        error: null,
        authorized: socket.authorized,
        authorization_error: error ? String((error as unknown as { code?: string }).code ?? error) : null,
        name_matches: isIP(host) ? x.checkIP(host) !== undefined : x.checkHost(host) !== undefined,
        subject: dn(x.subject),
        issuer: dn(x.issuer),
        valid_from: new Date(x.validFrom).toISOString(),
        valid_to: new Date(x.validTo).toISOString(),
        key_type: type,
        key_bits: bits,
        protocol: socket.getProtocol() ?? null,
        alpn: typeof socket.alpnProtocol === "string" ? socket.alpnProtocol : null,
      };
    });
  } catch (e) {
    return { ...EMPTY, connected: false, error: (e as Error).message };
  }
}

const VERSIONS: [keyof TlsVersions, SecureVersion][] = [
  ["tls13", "TLSv1.3"],
  ["tls12", "TLSv1.2"],
  ["tls11", "TLSv1.1"],
  ["tls10", "TLSv1"],
];

/** Which TLS versions `host` accepts: one handshake pinned to each version (1.3 skipped when already seen). */
export async function probeVersions(host: string, ctx: ScanContext, tls13Seen = false): Promise<TlsVersions> {
  const out: TlsVersions = { tls13: tls13Seen, tls12: false, tls11: false, tls10: false };
  for (const [key, version] of VERSIONS) {
    if (key === "tls13" && tls13Seen) continue;
    out[key] = await handshake(host, ctx, { minVersion: version, maxVersion: version }, () => true).catch(
      () => false,
    );
  }
  return out;
}
