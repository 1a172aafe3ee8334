import {
  type AuditLog,
  type AuthenticatedKey,
  authenticate,
  type Clock,
  clientGroup,
  createAuditLog,
  createMemoryRateLimiter,
  type DB,
  DEFAULT_AUDIT_RETENTION_DAYS,
  isUnirankError,
  pruneAccessState,
  RATE_WINDOW_SECONDS,
  type RateLimitDecision,
  rateLimitBatches,
  resolveClientIp,
  trustedProxies,
  UnirankError,
  verifyRequestSignature,
} from "../../lib/index.ts";
import { StorageHealth } from "../db/storage-health.ts";
import { HttpError } from "./error-status.ts";
import type { AdmissionFacts } from "./observer.ts";
import type { RequestContext } from "./request-context.ts";
import type { RouteSpec } from "./route.ts";
import { createViewTokens, type IssuedViewToken, type ViewTokens } from "./view-tokens.ts";

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
  /** Days audit rows are kept; 0 keeps them forever. Default 90. */
  auditRetentionDays?: number;
  /** An audit writer to use (default: a buffered one on `db`). */
  audit?: AuditLog;
  /** How often expired access state is pruned (ms); 0 = only when `prune()` is called. Default 10 minutes. */
  pruneIntervalMs?: number;
  log?: (level: "info" | "warn" | "error", message: string, fields?: Record<string, unknown>) => void;
  /** Explorer view tokens (default: 24 calls within 120 s each, a secret of this process). */
  viewTokens?: ViewTokens;
  /** Where failing writes of the access state are reported (`/health`); default: reported nowhere but the log. */
  storage?: StorageHealth;
  /**
   * Explorer page views (token requests) per rolling hour per client IP, counted apart from other anonymous
   * requests; 0 = not limited. Default (undefined or null): a page view counts against `anonymousLimit`.
   */
  explorerViewLimit?: number | null;
}

/** One request's passage through access control. */
export interface AccessGate extends AdmissionFacts {
  /** Headers for the response (rate-limit fields, `WWW-Authenticate`, `Retry-After`), filled by `admit`. */
  readonly headers: Record<string, string>;
  /** Throws the error to answer with (400 and 401 `UnirankError`, 429 `HttpError`) or resolves when the request may proceed. */
  admit(): Promise<void>;
  /** Records the final response in the audit log where required (v2, or a key was sent). */
  close(response: Response): void;
  /** True once `admit` has let the request in with a valid API key. */
  readonly keyed: boolean;
}

export interface AccessGuard {
  /** Anonymous requests per rolling hour per client IP; 0 = no limit. */
  readonly anonymousLimit: number;
  /**
   * Starts one request's passage to `route` (the router's match: its rules, never the path as sent, decide); the
   * request context knows its target and how to find its socket peer.
   */
  open(rc: RequestContext, route: Pick<RouteSpec, "version" | "countsEveryCall">): AccessGate;
  /** The client's address of any request: the peer, or `X-Forwarded-For` when the peer is a trusted proxy. */
  clientIp(rc: RequestContext): string;
  /** Runs the housekeeping now (rate-limit rows, replay records, audit retention). */
  prune(): Promise<void>;
  /** Stops the timers and flushes the audit log. */
  close(): Promise<void>;
  readonly audit: AuditLog;
  /** A new explorer view token (the request that asks for it has been counted already). */
  issueViewToken(): IssuedViewToken;
}

/** The kinds of write of the access state, as `/health` names them. */
const ACCESS_WRITES = ["rate limits", "audit log", "signature replays", "access housekeeping"];

const AUTH_CHALLENGE = 'Bearer realm="unirank", error="invalid_token"';
const SIGNATURE_CHALLENGE =
  'Bearer realm="unirank", error="invalid_token", error_description="invalid signature"';

const HOW_TO_SEND =
  "send the API key as Authorization: Bearer <key>, as X-API-Key: <key> or as ?api_key=<key>";

/**
 * Every key value the request carries, from the three places, and whether an `Authorization` header holds a
 * credential in another form (`Basic …`, a bare key): that is refused, never read as anonymous.
 */
interface SuppliedKeys {
  readonly keys: readonly string[];
  readonly unusable: string | null;
  readonly bearerComma: boolean;
}

/** What a request without any key carries: one answer shared by all of them. */
const NO_KEYS: SuppliedKeys = Object.freeze({ keys: Object.freeze([]), unusable: null, bearerComma: false });

function suppliedKeys(rc: RequestContext): SuppliedKeys {
  const { request, search } = rc;
  const header = request.headers.get("x-api-key");
  const authorization = request.headers.get("authorization");
  const mayName = search.includes("api_key") || search.includes("%");
  if (header === null && authorization === null && !mayName) return NO_KEYS;
  const keys: string[] = [];
  let unusable: string | null = null;
  let bearerComma = false;
  // Repeated headers arrive joined by ", "; a key never contains a comma.
  if (header !== null) keys.push(...header.split(",").map((k) => k.trim()));
  if (authorization !== null && authorization.trim() !== "") {
    let afterBearer = false;
    for (const part of authorization.split(",")) {
      if (part.trim() === "") continue;
      const m = /^\s*bearer(?:\s+(.*))?$/i.exec(part);
      const scheme = m ? "bearer" : /^\s*([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)\s/.exec(part)?.[1];
      if (m) keys.push((m[1] ?? "").trim());
      // A part with no scheme right after a Bearer one is the rest of that credential: `Bearer K,K`.
      else if (scheme === undefined && afterBearer) bearerComma = true;
      else unusable ??= scheme ?? "";
      afterBearer = m !== null;
    }
  }
  // The query string is read only when it may name `api_key` (plainly or percent-encoded), from the request's one
  // parse, which the route's parameters use too.
  if (mayName) {
    const named = rc.query.api_key;
    if (named !== undefined) keys.push(...(typeof named === "string" ? [named] : named).map((k) => k.trim()));
  }
  return { keys, unusable, bearerComma };
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
  const storage = settings.storage ?? new StorageHealth(log);
  // Writes of the access state that fail (a full disk, a file that may not be written) are decided per write:
  // the rate limit goes on in this process's memory (fail open, still limited), the audit log keeps its rows in
  // memory until they can be written (up to its bound), a signed request is refused while its replay record
  // cannot be stored (fail closed). Each failure and recovery shows in /health and the log.
  const memoryLimiter = createMemoryRateLimiter();
  // The decisions of requests that arrive together share one transaction (docs/performance.md).
  const rateLimits = rateLimitBatches(stateDb);
  let pruneFailed = false;
  /**
   * A write of the access state went through: the storage takes writes again, for every kind of them (one file or
   * database), and housekeeping that failed is run again now rather than at its next turn.
   */
  const wrote = (what: string) => {
    storage.writeSucceeded(what);
    for (const other of ACCESS_WRITES) if (other !== what) storage.writeSucceeded(other);
    if (pruneFailed) {
      pruneFailed = false;
      runPrune();
    }
  };
  const audit =
    settings.audit ??
    createAuditLog(stateDb, {
      clock,
      retentionDays,
      onError: (e) => storage.writeFailed("audit log", e),
      onWritten: () => wrote("audit log"),
    });
  const viewTokens = settings.viewTokens ?? createViewTokens();
  const viewLimit = settings.explorerViewLimit ?? null;

  const prune = async () => {
    try {
      await pruneAccessState(stateDb, { now: clock(), auditRetentionDays: retentionDays });
      storage.writeSucceeded("access housekeeping");
    } catch (e) {
      storage.writeFailed("access housekeeping", e);
      pruneFailed = true;
      throw e;
    }
  };
  const runPrune = () => {
    prune().catch(() => {});
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

  // The last peer and forwarded chain resolved, and the client they gave: a server's requests come from few
  // clients at a time, so most ask the same again.
  let last: { peer: string | undefined; forwarded: string | null; client: string } | null = null;
  const clientIpOf = (rc: RequestContext): string => {
    const peer = rc.peer();
    const forwarded = rc.request.headers.get("x-forwarded-for");
    if (last === null || last.peer !== peer || last.forwarded !== forwarded)
      last = { peer, forwarded, client: resolveClientIp(peer, forwarded, isTrusted) };
    return last.client;
  };

  const open: AccessGuard["open"] = (rc, route) => {
    const request = rc.request;
    const headers: Record<string, string> = {};
    // The arrival's time, read only for a request the audit log records (v2, or one with a key).
    let arrived = route.version === "v2" ? clock() : undefined;
    const started = performance.now();
    let keySupplied = false;
    let key: AuthenticatedKey | null = null;
    let limited: string | null = null;
    let clientIp: string | null = null;
    const ipOf = () => {
      clientIp ??= clientIpOf(rc);
      return clientIp;
    };

    return {
      headers,
      get keyId() {
        return key?.id ?? null;
      },
      get rateLimited() {
        return limited;
      },
      clientIp: ipOf,
      get keyed() {
        return key !== null;
      },
      async admit() {
        const { keys: supplied, unusable, bearerComma } = suppliedKeys(rc);
        keySupplied = supplied.length > 0 || unusable !== null || bearerComma;
        if (keySupplied) arrived ??= clock();
        if (bearerComma && unusable === null) {
          throw withHeaders(
            new UnirankError(
              "INVALID_API_KEY",
              `Authorization: Bearer carries one key, and this one has a comma in it (no key has); ${HOW_TO_SEND}`,
            ),
            headers,
            { "WWW-Authenticate": 'Bearer realm="unirank", error="invalid_request"' },
          );
        }
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
        if (supplied.length > 1 && new Set(supplied).size > 1) {
          const message = "Two different API keys were sent; send one key, in one place";
          throw new UnirankError("INVALID_PARAMETER", message, [{ param: "api_key", message }]);
        }
        let now: Date;
        let client: string;
        let limit: number;
        let policy: string;
        if (keySupplied) {
          now = arrived ?? clock();
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
              wrote("signature replays");
            } catch (e) {
              if (isUnirankError(e))
                throw withHeaders(e, headers, { "WWW-Authenticate": SIGNATURE_CHALLENGE });
              storage.writeFailed("signature replays", e);
              throw new HttpError(
                "UNAVAILABLE",
                "A signed request cannot be checked against replays while the access state cannot be written; try again later",
              );
            }
          }
          client = `key:${key.id}`;
          limit = key.rate_limit;
          policy = "per-key";
        } else {
          if (anonymousLimit <= 0) return;
          now = clock();
          // The route that hands out view tokens (the router's match, never the path as sent).
          const viewRequest = route.countsEveryCall === true;
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
        let decision: RateLimitDecision;
        try {
          decision = await rateLimits.consume({ client, limit, now });
          wrote("rate limits");
        } catch (e) {
          storage.writeFailed("rate limits", e);
          decision = memoryLimiter.consume({ client, limit, now });
        }
        Object.assign(headers, rateHeaders(decision, policy, now.getTime()));
        if (!decision.allowed) {
          limited = policy;
          headers["Retry-After"] = String(decision.retryAfter);
          const what = policy === "explorer-views" ? "explorer page views" : "requests";
          throw new HttpError(
            "RATE_LIMITED",
            `Rate limit of ${limit} ${what} per hour exceeded; retry in ${decision.retryAfter} s`,
          );
        }
      },
      close(response) {
        if (route.version !== "v2" && !keySupplied) return;
        audit.record({
          at: arrived ?? clock(),
          request_id: rc.requestId,
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
    clientIp: clientIpOf,
    issueViewToken: () => viewTokens.issue(clock()),
    prune,
    async close() {
      if (timer) clearInterval(timer);
      if (first) clearTimeout(first);
      await audit.close();
    },
  };
}
