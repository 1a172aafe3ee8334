import { startScanWeb } from "../test/support/scan-web.ts";
import { WELL_KEPT } from "../test/support/scan-web-sites.ts";

/** The bench's fixture web in its own process: one well-kept site answering for every `*.bench.test`. */
const web = await startScanWeb([{ ...WELL_KEPT, domain: "bench.test", wildcard: true }]);
process.stdout.write(`${JSON.stringify({ resolver: web.resolver, ports: web.ports, ca: web.ca })}\n`);
process.on("SIGTERM", () => void web.close().then(() => process.exit(0)));
