/**
 * What the hosting server knows of a request's connection, as Hono's `ConnInfo`: the socket peer's address (rate
 * limits count it; `X-Forwarded-For` is believed only from trusted proxies). Each runtime adapter makes one.
 */
export interface ConnInfo {
  remote: { address?: string };
}

/** What a Bun server (`Bun.serve`, or Elysia's `server` on Bun) tells of a request's peer. */
export interface BunServerPeers {
  requestIP(request: Request): { address: string } | null;
}

/**
 * The connection info of a request to a Bun server. The peer is asked of the server when first read (only a rate
 * limit or the audit log needs it; docs/performance.md says why). A class, so that the one made per request is a
 * plain object with its getter on the prototype.
 */
class BunConnInfo implements ConnInfo {
  constructor(
    private readonly server: BunServerPeers | null | undefined,
    private readonly request: Request,
  ) {}
  get remote(): { address?: string } {
    let address: string | undefined;
    try {
      address = this.server?.requestIP(this.request)?.address;
    } catch {}
    return address === undefined ? {} : { address };
  }
}

/** The connection info of a request to a Bun server (`BunConnInfo`). */
export function bunConnInfo(server: BunServerPeers | null | undefined, request: Request): ConnInfo {
  return new BunConnInfo(server, request);
}
