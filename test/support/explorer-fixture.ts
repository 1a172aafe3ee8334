import { join } from "node:path";
import { migrate, writeRecords } from "../../lib/index.ts";
import { isoTimestamp } from "../../lib/time/format.ts";
import { openDatabase } from "../../src/db/open.ts";
import { loadDemo } from "../../src/demo.ts";
import { type FixtureSite, type Res, type ScanWeb, scanCliArgs, startScanWeb } from "./scan-web.ts";
import { WELL_KEPT } from "./scan-web-sites.ts";
import { runCli } from "./serve-process.ts";

/**
 * The explorer's dataset: the demo, plus a university scanned twice by `unirank scan` on a loopback site that
 * stopped sending one security header in between (so its evidence, its diff and its rank are real), plus a
 * university whose name is 500 characters without a space, first in every ranking, and one scanned once.
 */

export const SCANNED_DOMAIN = WELL_KEPT.domain;
export const SCANNED_NAME = "University of Wellkept";
/** The header the site stops sending between the two scans. */
export const REMOVED_HEADER = "x-content-type-options";
export const LONG_NAME = `Rijksuniversiteit${"Hogeschoolvoorwetenschappen".repeat(18)}`.slice(0, 500);
export const LONG_DOMAIN = "long-name.nl.example";
export const SINGLE_DOMAIN = "single-scan.nl.example";

export interface ExplorerDataset {
  db: string;
  /** The two scans of the scanned university, oldest first. */
  scans: [number, number];
  universityId: number;
  longId: number;
  /** A university with one completed scan. */
  singleId: number;
}

/** A site that forwards to `site` but leaves out the headers in `removed`. */
function withoutHeaders(site: FixtureSite, removed: Set<string>): FixtureSite {
  const handler = site.https;
  if (!handler) return site;
  return {
    ...site,
    https: (req, res, s) => {
      const strip = (headers?: Record<string, string | string[]>) =>
        headers && Object.fromEntries(Object.entries(headers).filter(([k]) => !removed.has(k.toLowerCase())));
      const filtered: Res = {
        writeHead: (status, headers) => res.writeHead(status, strip(headers)),
        setHeader: (name, value) =>
          removed.has(name.toLowerCase()) ? undefined : res.setHeader(name, value),
        write: (chunk) => res.write(chunk),
        end: (chunk) => res.end(chunk),
      };
      handler(req, filtered, s);
    },
  };
}

export async function buildExplorerDataset(dir: string): Promise<ExplorerDataset> {
  const removed = new Set<string>();
  const web: ScanWeb = await startScanWeb([withoutHeaders(WELL_KEPT, removed)]);
  const db = join(dir, "explorer.db");
  try {
    const opened = await openDatabase(db);
    await migrate(opened.db);
    await loadDemo(opened.db);
    const day = 86_400_000;
    const at = (daysAgo: number) => isoTimestamp(new Date(Date.now() - daysAgo * day));
    const allScores = (v: number) => ({ overall_score: v, webo_composite_score: v, tech_composite_score: v });
    await writeRecords(opened.db, [
      { type: "university", domain: SCANNED_DOMAIN, name: SCANNED_NAME, country: "NL" },
      { type: "university", domain: LONG_DOMAIN, name: LONG_NAME, country: "NL" },
      { type: "university", domain: SINGLE_DOMAIN, name: "Hogeschool Eenmalig", country: "NL" },
      {
        type: "scan",
        source_id: "single-1",
        domain: SINGLE_DOMAIN,
        status: "completed",
        started_at: at(5),
        completed_at: at(5),
        ...allScores(50),
      },
      {
        type: "scan",
        source_id: "long-1",
        domain: LONG_DOMAIN,
        status: "completed",
        started_at: at(20),
        completed_at: at(20),
        ...allScores(100),
      },
      {
        type: "scan",
        source_id: "long-2",
        domain: LONG_DOMAIN,
        status: "completed",
        started_at: at(2),
        completed_at: at(2),
        ...allScores(99.5),
      },
    ]);
    await opened.close();
    const scan = async () => {
      // The demo universities stay beside the scanned one: this page shows both.
      const r = await runCli([
        "scan",
        SCANNED_DOMAIN,
        "--with-demo",
        "--db",
        db,
        ...scanCliArgs(web),
        "--timeout",
        "5",
      ]);
      if (r.code !== 0) throw new Error(`unirank scan failed (${r.code}): ${r.out}\n${r.err}`);
    };
    await scan();
    removed.add(REMOVED_HEADER);
    await scan();
  } finally {
    await web.close();
  }
  const opened = await openDatabase(db);
  try {
    const ids = async (domain: string) =>
      Number(
        (
          await opened.db
            .selectFrom("universities")
            .select("id")
            .where("domain", "=", domain)
            .executeTakeFirstOrThrow()
        ).id,
      );
    const universityId = await ids(SCANNED_DOMAIN);
    const scans = await opened.db
      .selectFrom("scans")
      .select("id")
      .where("university_id", "=", universityId)
      .where("status", "=", "completed")
      .orderBy("completed_at")
      .orderBy("id")
      .execute();
    if (scans.length !== 2)
      throw new Error(`expected two completed scans of ${SCANNED_DOMAIN}, got ${scans.length}`);
    return {
      db,
      scans: [Number(scans[0]?.id), Number(scans[1]?.id)],
      universityId,
      longId: await ids(LONG_DOMAIN),
      singleId: await ids(SINGLE_DOMAIN),
    };
  } finally {
    await opened.close();
  }
}
