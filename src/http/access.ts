import { DEFAULT_AUDIT_RETENTION_DAYS } from "../../lib/access/audit-log.ts";
import { clientGroup, resolveClientIp, trustedProxies } from "../../lib/access/client-ip.ts";
import {
  consumeRateLimit,
  RATE_WINDOW_SECONDS,
  type RateLimitDecision,
} from "../../lib/access/rate-limiter.ts";
import { createViewTokens, type IssuedViewToken, type ViewTokens } from "../../lib/access/view-tokens.ts";
import {
  type AuditLog,
  type AuthenticatedKey,
  authenticate,
  type Clock,
  createAuditLog,
  type DB,
  isUnirankError,
  pruneAccessState,
  UnirankError,
  verifyRequestSignature,
} from "../../lib/index.ts";
import type { RequestContext } from "./request-context.ts";
import type { ApiVersion } from "./route.ts";

/**
 * Access control in front of v1 and v2 handlers: API keys (three places, never a silent fall back to
 * anonymous), exact rolling-hour limits per client IP or per key (state in the database), HMAC signatures for
 * keys that require them, and the audit log. Runtime-agnostic: the adapter tells it the socket peer.
 */

export interface AccessSettings {
  /** The data database: API keys are read here. */
  db: DB;
  /**
   * Where the state written on the request path lives (rate limits, signature replays, the audit log); default
   * `db`. The server gives a SQLite file's own access-state file (`openAccessState`).
   */
  stateDb?: DB;
  clock: Clock;
  /** Anonymous requests per rolling hour per client IP (IPv6: per /64); 0 turns the limit off. Default 100. */
  anonymousLimit?: number;
  /** Proxies (addresses or CIDRs, IPv4/IPv6) whose `X-Forwarded-For` is believed. Default none. */
  trustProxy?: readonly string[];
  /** The socket peer of a request; adapters provide it (Bun: `server.requestIP(request)`). */
  peerAddress?: (request: Request) => string | undefined;
  /** Days audit rows are kept; 0 keeps them forever. Default 90. */
  auditRetentionDays?: number;
  /** An audit writer to use (default: a buffered one on `db`). */
  audit?: AuditLog;
  /** How often expired access state is pruned (ms); 0 = only when `prune()` is called. Default 10 minutes. */
  pruneIntervalMs?: number;
  log?: (level: "info" | "warn" | "error", message: string, fields?: Record<string, unknown>) => void;
  /** Explorer view tokens (default: 24 calls within 120 s each, a secret of this process). */
  viewTokens?: ViewTokens;
  /**
   * Explorer page views (token requests) per rolling hour per client IP, counted apart from other anonymous
   * requests; 0 = not limited. Default (undefined or null): a page view counts against `anonymousLimit`.
   */
  explorerViewLimit?: number | null;
}

/** Something that knows the peer of a request (Elysia's `server` once it listens, Bun's `Server`). */
export interface PeerSource {
  requestIP?(request: Request): { address: string } | null;
}

/** One request's passage through access control. */
export interface AccessGate {
  /** Headers for the response (rate-limit fields, `WWW-Authenticate`, `Retry-After`), filled by `admit`. */
  readonly headers: Record<string, string>;
  /** Throws the UnirankError to answer with (400, 401, 429) or resolves when the request may proceed. */
  admit(): Promise<void>;
  /** Records the final response in the audit log where required (v2, or a key was sent). */
  close(response: Response): void;
}

export interface AccessGuard {
  /** Anonymous requests per rolling hour per client IP; 0 = no limit. */
  readonly anonymousLimit: number;
  /** Starts one request's passage; the request context knows its target and how to find its socket peer. */
  open(rc: RequestContext, version: ApiVersion): AccessGate;
  /** Runs the housekeeping now (rate-limit rows, replay records, audit retention). */
  prune(): Promise<void>;
  /** Stops the timers and flushes the audit log. */
  close(): Promise<void>;
  readonly audit: AuditLog;
  /** A new explorer view token (the request that asks for it has been counted already). */
  issueViewToken(): IssuedViewToken;
}

/** The explorer's token request: it always counts, token or not. */
const VIEW_TOKEN_PATH = "/api/v2/explorer/view";

const AUTH_CHALLENGE = 'Bearer realm="unirank", error="invalid_token"';
const SIGNATURE_CHALLENGE =
  'Bearer realm="unirank", error="invalid_token", error_description="invalid signature"';

const HOW_TO_SEND =
  "send the API key as Authorization: Bearer <key>, as X-API-Key: <key> or as ?api_key=<key>";

/**
 * Every key value the request carries, from the three places, and whether an `Authorization` header holds a
 * credential in another form (`Basic …`, a bare key): that is refused, never read as anonymous.
 */
function suppliedKeys(request: Request, search: string): { keys: string[]; unusable: string | null } {
  const keys: string[] = [];
  let unusable: string | null = null;
  const header = request.headers.get("x-api-key");
  // Repeated headers arrive joined by ", "; a key never contains a comma.
  if (header !== null) keys.push(...header.split(",").map((k) => k.trim()));
  const authorization = request.headers.get("authorization");
  if (authorization !== null && authorization.trim() !== "") {
    for (const part of authorization.split(",")) {
      if (part.trim() === "") continue;
      const m = /^\s*bearer(?:\s+(.*))?$/i.exec(part);
      if (m) keys.push((m[1] ?? "").trim());
      else unusable ??= /^\s*([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)\s/.exec(part)?.[1] ?? "";
    }
  }
  // The query string is parsed only when it may name `api_key` (plainly or percent-encoded).
  if (search.includes("api_key") || search.includes("%")) {
    keys.push(...new URLSearchParams(search).getAll("api_key").map((k) => k.trim()));
  }
  return { keys, unusable };
}

function withHeaders(error: UnirankError, headers: Record<string, string>, extra: Record<string, string>) {
  Object.assign(headers, extra);
  return error;
}

function rateHeaders(decision: RateLimitDecision, policy: string, now: number): Record<string, string> {
  const resetIn = Math.max(0, Math.ceil((decision.resetAt - now) / 1000));
  return {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": String(Math.ceil(decision.resetAt / 1000)),
    RateLimit: `"${policy}";r=${decision.remaining};t=${resetIn}`,
    "RateLimit-Policy": `"${policy}";q=${decision.limit};w=${RATE_WINDOW_SECONDS}`,
  };
}

export function createAccessGuard(settings: AccessSettings): AccessGuard {
  const { db, clock } = settings;
  const stateDb = settings.stateDb ?? db;
  const anonymousLimit = settings.anonymousLimit ?? 100;
  const isTrusted = trustedProxies(settings.trustProxy ?? []);
  const retentionDays = settings.auditRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS;
  const log = settings.log ?? (() => {});
  const audit =
    settings.audit ??
    createAuditLog(stateDb, {
      clock,
      retentionDays,
      onError: (e) => log("warn", "audit log write failed; will retry", { error: String(e) }),
    });
  const viewTokens = settings.viewTokens ?? createViewTokens();
  const viewLimit = settings.explorerViewLimit ?? null;

  const prune = async () => {
    await pruneAccessState(stateDb, { now: clock(), auditRetentionDays: retentionDays });
  };
  const runPrune = () => {
    prune().catch((e) => log("warn", "access housekeeping failed", { error: String(e) }));
  };
  const interval = settings.pruneIntervalMs ?? 600_000;
  let timer: ReturnType<typeof setInterval> | undefined;
  let first: ReturnType<typeof setTimeout> | undefined;
  if (interval > 0) {
    first = setTimeout(runPrune, 1000);
    timer = setInterval(runPrune, interval);
    (first as { unref?: () => void }).unref?.();
    (timer as { unref?: () => void }).unref?.();
  }

  const open = (rc: RequestContext, version: ApiVersion): AccessGate => {
    const request = rc.request;
    const headers: Record<string, string> = {};
    const arrived = clock();
    const started = performance.now();
    let keySupplied = false;
    let key: AuthenticatedKey | null = null;
    let clientIp: string | null = null;
    const peer = (): string | undefined => {
      return rc.peer() ?? settings.peerAddress?.(request);
    };
    const ipOf = () => {
      clientIp ??= resolveClientIp(peer(), request.headers.get("x-forwarded-for"), isTrusted);
      return clientIp;
    };

    return {
      headers,
      async admit() {
        const { keys: supplied, unusable } = suppliedKeys(request, rc.search);
        keySupplied = supplied.length > 0 || unusable !== null;
        if (unusable !== null) {
          const form = unusable === "" ? "a value without a scheme" : `the ${unusable} scheme`;
          throw withHeaders(
            new UnirankError(
              "INVALID_API_KEY",
              `Authorization uses ${form}, which unirank cannot use; ${HOW_TO_SEND}`,
            ),
            headers,
            { "WWW-Authenticate": 'Bearer realm="unirank", error="invalid_request"' },
          );
        }
        if (new Set(supplied).size > 1) {
          const message = "Two different API keys were sent; send one key, in one place";
          throw new UnirankError("INVALID_PARAMETER", message, [{ param: "api_key", message }]);
        }
        const now = clock();
        let client: string;
        let limit: number;
        let policy: string;
        if (keySupplied) {
          try {
            key = await authenticate(db, supplied[0] ?? "");
          } catch (e) {
            if (isUnirankError(e)) throw withHeaders(e, headers, { "WWW-Authenticate": AUTH_CHALLENGE });
            throw e;
          }
          if (key.require_signature) {
            try {
              await verifyRequestSignature(stateDb, {
                keyId: key.id,
                secret: key.signing_secret ?? "",
                timestamp: request.headers.get("x-timestamp"),
                signature: request.headers.get("x-signature"),
                method: request.method,
                pathWithQuery: rc.target,
                now,
              });
            } catch (e) {
              if (isUnirankError(e))
                throw withHeaders(e, headers, { "WWW-Authenticate": SIGNATURE_CHALLENGE });
              throw e;
            }
          }
          client = `key:${key.id}`;
          limit = key.rate_limit;
          policy = "per-key";
        } else {
          if (anonymousLimit <= 0) return;
          const viewRequest = rc.pathname.endsWith(VIEW_TOKEN_PATH);
          // A call of an explorer page view, within its token's bounded budget, is not counted again.
          const viewToken = request.headers.get("x-explorer-token");
          if (viewToken && !viewRequest) {
            const left = viewTokens.admit(viewToken, now);
            if (left !== null) {
              headers["X-Explorer-View-Remaining"] = String(left);
              return;
            }
          }
          if (viewRequest && viewLimit !== null) {
            // Page views have a limit of their own (a campus behind one address): counted apart.
            client = `view:${clientGroup(ipOf())}`;
            limit = viewLimit;
            policy = "explorer-views";
          } else {
            client = `ip:${clientGroup(ipOf())}`;
            limit = anonymousLimit;
            policy = "per-ip";
          }
        }
        if (limit <= 0) return;
        const decision = await consumeRateLimit(stateDb, { client, limit, now });
        Object.assign(headers, rateHeaders(decision, policy, now.getTime()));
        if (!decision.allowed) {
          headers["Retry-After"] = String(decision.retryAfter);
          const what = policy === "explorer-views" ? "explorer page views" : "requests";
          throw new UnirankError(
            "RATE_LIMITED",
            `Rate limit of ${limit} ${what} per hour exceeded; retry in ${decision.retryAfter} s`,
          );
        }
      },
      close(response) {
        if (version !== "v2" && !keySupplied) return;
        audit.record({
          at: arrived,
          request_id: response.headers.get("X-Request-Id") ?? "",
          key_id: key?.id ?? null,
          client_ip: ipOf(),
          method: request.method,
          path: rc.target,
          status: response.status,
          duration_ms: performance.now() - started,
        });
      },
    };
  };

  return {
    anonymousLimit: Math.max(0, anonymousLimit),
    audit,
    open,
    issueViewToken: () => viewTokens.issue(clock()),
    prune,
    async close() {
      if (timer) clearInterval(timer);
      if (first) clearTimeout(first);
      await audit.close();
    },
  };
}
