import { type Clock, mentionsKeyPrefix, type RawParams } from "../../lib/index.ts";
import type { ConnInfo } from "./conn-info.ts";
import type { AdmissionFacts } from "./observer.ts";
import { parseQueryString } from "./query-string.ts";
import { requestTarget, splitTarget } from "./route.ts";

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * One request's facts, made once when it arrives and handed through the pipeline: its target as sent (read from
 * `request.url` once: every read of that getter makes a new string), the request id, one reading of the clock,
 * and how to learn the socket peer (asked only when a rate limit or the audit log needs it).
 */
export class RequestContext {
  readonly target: string;
  readonly pathname: string;
  readonly search: string;
  #requestId: string | undefined;
  #query: RawParams | undefined;
  #now: Date | undefined;
  /** The matched route's template, once routed. */
  route: string | null = null;
  /** What access control learnt of the request, on v1 and v2. */
  gate: AdmissionFacts | undefined;

  constructor(
    readonly request: Request,
    private readonly clock: Clock,
    /** What the hosting server knows of the connection, where it tells. */
    private readonly conn?: ConnInfo,
  ) {
    this.target = requestTarget(request.url);
    const { pathname, search } = splitTarget(this.target);
    this.pathname = pathname;
    this.search = search;
  }

  /**
   * The client's `X-Request-Id` when sane (1–128 of `A-Z a-z 0-9 . _ : -`, and no `urk_`/`urs_` in any case: key
   * material is never echoed nor audited), else a new UUID; made when first asked for.
   */
  get requestId(): string {
    if (this.#requestId === undefined) {
      const incoming = this.request.headers.get("X-Request-Id");
      this.#requestId =
        incoming && SANE_REQUEST_ID.test(incoming) && !mentionsKeyPrefix(incoming)
          ? incoming
          : crypto.randomUUID();
    }
    return this.#requestId;
  }

  /** The query string's parameters (`parseQueryString`), parsed once when first asked for (access, then the route). */
  get query(): RawParams {
    this.#query ??= parseQueryString(this.search);
    return this.#query;
  }

  /** The socket peer's address, where the hosting server can tell it (asked when first needed). */
  peer(): string | undefined {
    return this.conn?.remote.address;
  }

  /** The clock, read once per request. */
  now(): Date {
    this.#now ??= this.clock();
    return this.#now;
  }
}
