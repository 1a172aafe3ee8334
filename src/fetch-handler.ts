/**
 * `unirank/fetch`: unirank's HTTP API for embedders as a Web-standard `fetch(Request) → Response` function, for
 * any server on Node ≥ 22, Bun or Deno, over the embedder's own Kysely instance (run `migrate(db)` from `unirank`
 * first). It needs no web framework; `unirank/elysia` adds the Elysia plugin on top of it.
 * Request URLs keep the prefix: docs links, HMAC-signed paths and audit entries are what clients see.
 */
import type { ConnInfo } from "./http/conn-info.ts";
import { embedded, type UnirankOptions } from "./http/embedded.ts";

export type { AccessGuard, AccessSettings } from "./http/access.ts";
export { ResponseCache, type ResponseCacheOptions } from "./http/cache.ts";
export type { ConnInfo } from "./http/conn-info.ts";
export type { AppContext } from "./http/context.ts";
export { type AccessOptions, normalizePrefix, type UnirankOptions } from "./http/embedded.ts";
export type { AdmissionFacts, RequestObserver, RequestRecord } from "./http/observer.ts";

/** A Web-standard handler; `close()` stops access-control timers and flushes the audit log. */
export interface FetchHandler {
  (request: Request, conn?: ConnInfo): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The Web-standard handler: answers every request under the prefix (other paths: 404 in the v1 shape).
 * Pass what the server knows of the connection as `conn` (`{ remote: { address } }`, as Hono's `ConnInfo`).
 */
export function createFetchHandler(options: UnirankOptions): FetchHandler {
  const { app, close } = embedded(options);
  const handler = (request: Request, conn?: ConnInfo): Promise<Response> => app.handle(request, conn);
  return Object.assign(handler, { close });
}
