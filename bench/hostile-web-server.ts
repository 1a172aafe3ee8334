import { startHostileWeb } from "../test/support/hostile-web.ts";

/** The hostile web of `bench/scan-hostile.ts` in its own process: prints its resolver and ports as one JSON line. */
const web = await startHostileWeb();
process.stdout.write(`${JSON.stringify({ resolver: web.resolver, ports: web.ports })}\n`);
process.on("SIGTERM", () => void web.close().then(() => process.exit(0)));
