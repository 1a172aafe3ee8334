/**
 * Child of the benchmark: the ceiling of the runtime. A bare `Bun.serve` answering every request with the
 * same JSON body (the bytes of a real rankings page), no routing, no database.
 *
 *   bun bench/ceiling.ts BODY.json PORT
 */
export {};

const [bodyPath, portArg] = process.argv.slice(2);
if (!bodyPath || !portArg) throw new Error("usage: ceiling.ts BODY.json PORT");
const body = await Bun.file(bodyPath).text();
Bun.serve({
  hostname: "127.0.0.1",
  port: Number(portArg),
  fetch: () => new Response(body, { headers: { "Content-Type": "application/json; charset=utf-8" } }),
});
