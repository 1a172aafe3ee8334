import { afterAll } from "bun:test";
import { stopTestPostgres } from "./postgres-server.ts";

// Preloaded by bunfig.toml: a hook for the whole `bun test` run. The PostgreSQL test server (started on first
// use by test/support/databases.ts) is stopped once every test file has run.
afterAll(() => {
  stopTestPostgres();
});
