// Child of bench/lhci.ts (run with node): the Lighthouse CI server installed in LHCI_DIR, through its documented
// createServer, on PostgreSQL storage. Prints one JSON line with its port once it listens.
//   node bench/lhci-server.mjs LHCI_DIR PORT POSTGRES_URL
import { createRequire } from "node:module";
import { join } from "node:path";

const [dir, port, url] = process.argv.slice(2);
const { createServer } = createRequire(join(dir, "package.json"))("@lhci/server");
const server = await createServer({
  port: Number(port),
  logLevel: "silent",
  storage: { storageMethod: "sql", sqlDialect: "postgres", sqlConnectionUrl: url },
});
process.stdout.write(`${JSON.stringify({ port: server.port })}\n`);
process.once("SIGTERM", () => server.close().then(() => process.exit(0)));
