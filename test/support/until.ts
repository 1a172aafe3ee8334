/** Polls `f` every `everyMs` until it gives something truthy, which it returns; throws naming `what` past `ms`. */
export async function until<T>(
  what: string,
  f: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  ms = 30_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(everyMs);
  }
}
