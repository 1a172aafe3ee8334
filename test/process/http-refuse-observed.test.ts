import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { migrate } from "../../lib/index.ts";
import { type OpenedDatabase, openSqlite } from "../../src/db/open.ts";
import { createApp } from "../../src/http/app.ts";
import type { RequestRecord } from "../../src/http/observer.ts";
import { tempDir } from "../support/databases.ts";
import { testContext } from "../support/fixtures-app.ts";

/**
 * A draining server's refusals (`app.refuse`, 503 `UNAVAILABLE`) reach the observer, so metrics and the access log
 * count them under the route the request names, as they count every other answer.
 */
const dir = tempDir("unirank-refuse-");
let opened: OpenedDatabase;
beforeAll(async () => {
  opened = openSqlite(join(dir, "r.db"));
  await migrate(opened.db);
});
afterAll(async () => {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a refused request is observed: its route, 503, a request id; an unknown path as unmatched", async () => {
  const seen: RequestRecord[] = [];
  const app = createApp({ ...testContext(opened.db), observer: { observe: (r) => seen.push(r) } });
  const refused = app.refuse(new Request("http://x/api/v1/universities/7?x=1"), "shutting down");
  expect(refused.status).toBe(503);
  expect(refused.headers.get("Connection")).toBe("close");
  expect((await refused.json()).error.code).toBe("UNAVAILABLE");
  app.refuse(new Request("http://x/api/v2/rankings/"), "shutting down");
  app.refuse(new Request("http://x/no/such/path"), "shutting down");
  expect(seen.map((r) => [r.method, r.route, r.status])).toEqual([
    ["GET", "/api/v1/universities/:id", 503],
    ["GET", "/api/v2/rankings", 503],
    ["GET", null, 503],
  ]);
  expect(seen[0]?.requestId).toBe(refused.headers.get("X-Request-Id") as string);
  expect(seen[0]?.seconds).toBeGreaterThanOrEqual(0);
  // Without an observer, nothing to tell and the same answer.
  const quiet = createApp(testContext(opened.db));
  expect(quiet.refuse(new Request("http://x/api/v1/stats"), "shutting down").status).toBe(503);
});
