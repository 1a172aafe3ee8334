import type { Socket } from "node:net";

/** A failure the scan reports as it is (timeouts, refusals, loops): the message is the reason. */
export class FetchError extends Error {}

/** Idle keep-alive connections of one scan, one per host and port (the host queue serialises their use). */
export class ConnectionPool {
  private readonly idle = new Map<string, Socket>();

  take(key: string): Socket | undefined {
    const socket = this.idle.get(key);
    this.idle.delete(key);
    return socket && !socket.destroyed && socket.writable ? socket : undefined;
  }

  put(key: string, socket: Socket): void {
    this.idle.get(key)?.destroy();
    this.idle.set(key, socket);
  }

  close(): void {
    for (const socket of this.idle.values()) socket.destroy();
    this.idle.clear();
  }
}
