/**
 * `unirank/elysia`: unirank's HTTP API as an Elysia plugin, `unirank(options)`, mounting v1, v2, health, the docs
 * and the explorer under a prefix of the embedder's app. It is a thin adapter over the Web-standard handler of
 * `unirank/fetch` (also exported here): catch-all routes under the prefix hand each request to it, so the API's
 * cross-cutting rules (OPTIONS, 405, 404 in the API's shapes, request ids) never touch the embedder's routes.
 */
import { Elysia } from "elysia";
import { type BunServerPeers, bunConnInfo } from "./http/conn-info.ts";
import { embedded, type UnirankOptions } from "./http/embedded.ts";

export {
  type AccessGuard,
  type AccessOptions,
  type AccessSettings,
  type AppContext,
  type ConnInfo,
  createFetchHandler,
  type FetchHandler,
  normalizePrefix,
  type RequestObserver,
  type RequestRecord,
  ResponseCache,
  type ResponseCacheOptions,
  type UnirankOptions,
} from "./fetch-handler.ts";

/**
 * The Elysia plugin: `app.use(unirank({ db, prefix: "/unirank" }))`. Mounting several under different
 * prefixes works; the app's `stop()` flushes the audit log.
 */
export function unirank(options: UnirankOptions) {
  const { app, prefix, close } = embedded(options);
  const route = ({ request, server }: { request: Request; server: BunServerPeers | null }) =>
    app.handle(request, bunConnInfo(server, request));
  const plugin = new Elysia({ name: "unirank", seed: prefix }).onStop(close);
  if (prefix === "") return plugin.all("/*", route, { parse: "none" });
  return plugin.all(prefix, route, { parse: "none" }).all(`${prefix}/*`, route, { parse: "none" });
}
