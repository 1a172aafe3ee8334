import { heapStats, fullGC } from "bun:jsc";
import { openDatabase } from "../src/db/open.ts";
import { createAccessGuard } from "../src/http/access.ts";
import { createApp } from "../src/http/app.ts";
import { appContext } from "../src/server.ts";
import { buildScenarios } from "./scenarios.ts";
const dbPath = process.argv[2]!;
const rss = () => { const s = require("fs").readFileSync("/proc/self/status","utf8"); return s.split("\n").filter((l:string)=>/RssAnon|RssFile|VmRSS/.test(l)).join(" ").replace(/\s+/g," "); };
console.log("start", rss());
const opened = await openDatabase(dbPath, { readWindowMs: 1 });
const config = { db: dbPath, logDir: "/tmp", cache: false, cacheEntries: 1000, minFreeDiskGb: 0 } as Parameters<typeof appContext>[0];
const ctx = appContext(config, opened, () => {});
const access = createAccessGuard({ db: opened.db, clock: ctx.clock, anonymousLimit: 0, pruneIntervalMs: 0 });
const app = createApp({ ...ctx, access });
console.log("app", rss());
for (const sc of buildScenarios(dbPath, { deepPage: 1000, distinct: 500 })) {
  const paths = sc.paths.uncached;
  for (let i = 0; i < 300; i++) {
    const path = paths[i % paths.length] as string;
    const r = await app.handle(new Request(`http://127.0.0.1${path}`));
    await r.arrayBuffer();
  }
  Bun.gc(true);
  const h = heapStats();
  console.log(sc.name.padEnd(14), rss(), "heap", (h.heapSize/1e6).toFixed(1), "extra", (h.extraMemorySize/1e6).toFixed(1), "cap", (h.heapCapacity/1e6).toFixed(1), "objs", h.objectCount);
}
const h = heapStats();
const top = Object.entries(h.objectTypeCounts).sort((a,b)=>b[1]-a[1]).slice(0,15);
console.log(top);
