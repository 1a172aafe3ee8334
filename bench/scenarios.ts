import { Database } from "bun:sqlite";
import { CATEGORY_NAMES, RANKED_SCORES } from "../lib/index.ts";

/** The endpoints under load, and the request paths each one cycles through. */

export type Mode = "uncached" | "cached";

export interface Scenario {
  name: string;
  label: string;
  /** Paths a run cycles through; in `uncached` mode each request also gets a distinct `_=N`. */
  paths: Record<Mode, string[]>;
  /** Modes to run (health is never cached, by contract). */
  modes: Mode[];
}

export interface ScenarioOptions {
  /** Page of the deep rankings run (1000 at full scale). */
  deepPage: number;
  /** Distinct paths per uncached list. */
  distinct: number;
  seed?: number;
}

/** A small deterministic PRNG (mulberry32), so every run asks the same questions. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Reads ids, scan ids and name fragments from the benchmark database and builds every scenario. */
export function buildScenarios(dbPath: string, options: ScenarioOptions): Scenario[] {
  const db = new Database(dbPath, { readonly: true });
  const rnd = prng(options.seed ?? 7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const ids = db
    .query<{ id: number }, []>("select id from universities order by id")
    .all()
    .map((r) => r.id);
  // Universities with a completed scan (the others answer 404 on /scores).
  const scanned = db
    .query<{ id: number }, []>("select university_id as id from latest_scans order by university_id")
    .all()
    .map((r) => r.id);
  const maxScan = db.query<{ m: number }, []>("select max(id) as m from scans").get()?.m ?? 1;
  // The five countries with the most universities (a distribution's country narrows its ranking).
  const countries = db
    .query<{ c: string }, []>(
      "select country as c from universities group by country order by count(*) desc, country limit 5",
    )
    .all()
    .map((r) => r.c);
  // By primary key only (a status filter would let SQLite walk the status index instead).
  const scansFrom = db.query<{ id: number; status: string }, [number]>(
    "select id, status from scans where id >= ? order by id limit 50",
  );
  const names = db
    .query<{ name: string }, [number]>("select name from universities where id % ? = 0 limit 5000")
    .all(Math.max(1, Math.floor(ids.length / 5000)))
    .map((r) => r.name);
  const scanId = () =>
    scansFrom.all(1 + Math.floor(rnd() * maxScan)).find((s) => s.status === "completed")?.id ?? 1;
  const times = <T>(n: number, f: () => T) => Array.from({ length: n }, f);

  // Search terms: 4 to 6 letters cut from the words of real names ("univ" and its like included).
  const fragment = () => {
    const words = pick(names)
      .split(/\s+/)
      .filter((w) => w.length >= 4);
    const word = words.length > 0 ? pick(words) : "univ";
    const len = Math.min(word.length, 4 + Math.floor(rnd() * 3));
    const start = Math.floor(rnd() * (word.length - len + 1));
    return encodeURIComponent(word.slice(start, start + len).toLowerCase());
  };
  const tenIds = () => {
    const set = new Set<number>();
    while (set.size < Math.min(10, ids.length)) set.add(pick(ids));
    return [...set].join(",");
  };
  const n = options.distinct;

  const fixed = (path: string): Record<Mode, string[]> => ({ uncached: [path], cached: [path] });
  const varied = (make: () => string): Record<Mode, string[]> => ({
    uncached: times(n, make),
    cached: [make()],
  });
  const both: Mode[] = ["uncached", "cached"];
  const scenarios: Scenario[] = [
    {
      name: "rankings",
      label: "v1 /rankings (page 1 of 50)",
      paths: fixed("/api/v1/rankings"),
      modes: both,
    },
    {
      name: "rankings-20",
      label: "v1 /rankings?limit=20 (page 1)",
      paths: fixed("/api/v1/rankings?limit=20"),
      modes: both,
    },
    {
      name: "rankings-deep",
      label: `v1 /rankings?page=${options.deepPage}&limit=20`,
      paths: fixed(`/api/v1/rankings?page=${options.deepPage}&limit=20`),
      modes: both,
    },
    {
      name: "list",
      label: "v1 /universities?page= (any page of 20)",
      paths: varied(() => `/api/v1/universities?page=${1 + Math.floor(rnd() * Math.ceil(ids.length / 20))}`),
      modes: both,
    },
    {
      name: "search",
      label: "v1 /universities?search=",
      paths: varied(() => `/api/v1/universities?search=${fragment()}`),
      modes: both,
    },
    {
      name: "search-sorted",
      label: "v1 /universities?search=&sort= (domain, country, created_at; asc, desc)",
      paths: varied(
        () =>
          `/api/v1/universities?search=${fragment()}&sort=${pick(["domain", "country", "created_at"])}&order=${pick(["asc", "desc"])}`,
      ),
      modes: both,
    },
    {
      name: "university",
      label: "v1 /universities/{id}",
      paths: varied(() => `/api/v1/universities/${pick(ids)}`),
      modes: both,
    },
    {
      name: "scores",
      label: "v1 /universities/{id}/scores",
      paths: varied(() => `/api/v1/universities/${pick(scanned)}/scores`),
      modes: both,
    },
    {
      name: "compare",
      label: "v1 /compare (10 ids)",
      paths: varied(() => `/api/v1/compare?ids=${tenIds()}`),
      modes: both,
    },
    {
      name: "leaderboard",
      label: "v2 /leaderboard/{category}",
      paths: {
        uncached: CATEGORY_NAMES.map((c) => `/api/v2/leaderboard/${c}`),
        cached: ["/api/v2/leaderboard/overall"],
      },
      modes: both,
    },
    {
      name: "regressions",
      label: "v2 /regressions",
      paths: fixed("/api/v2/regressions"),
      modes: both,
    },
    {
      name: "scan-diff",
      label: "v2 /scan-diff",
      paths: varied(() => `/api/v2/scan-diff?a=${scanId()}&b=${scanId()}`),
      modes: both,
    },
    {
      name: "rankings-csv",
      label: "v1 /rankings?format=csv (page 1 of 50)",
      paths: fixed("/api/v1/rankings?format=csv"),
      modes: both,
    },
    {
      name: "leaderboard-csv",
      label: "v2 /leaderboard/{category}?format=csv",
      paths: {
        uncached: CATEGORY_NAMES.map((c) => `/api/v2/leaderboard/${c}?format=csv`),
        cached: ["/api/v2/leaderboard/overall?format=csv"],
      },
      modes: both,
    },
    {
      name: "rankings-walk",
      label: "v2 /rankings?cursor=*&limit=50 (a walk's first page)",
      paths: fixed("/api/v2/rankings?cursor=*&limit=50"),
      modes: both,
    },
    {
      name: "distribution",
      label: "v2 /distribution (a ranked score, 1–40 bins, all or one of five countries)",
      paths: varied(
        () =>
          `/api/v2/distribution?score=${pick(RANKED_SCORES)}&bins=${1 + Math.floor(rnd() * 40)}${rnd() < 0.5 ? "" : `&country=${pick(countries)}`}`,
      ),
      modes: both,
    },
    {
      name: "history",
      label: "v2 /universities/{id}/history",
      paths: varied(() => `/api/v2/universities/${pick(scanned)}/history`),
      modes: both,
    },
    {
      name: "scan",
      label: "v2 /scans/{id}",
      paths: varied(() => `/api/v2/scans/${scanId()}`),
      modes: both,
    },
    {
      name: "rankings-100",
      label: "v1 /rankings?limit=100 (page 1, 22 KB)",
      paths: fixed("/api/v1/rankings?limit=100"),
      modes: both,
    },
    // The other read endpoints: uncached only (an export is never reused; the rest are one answer a generation).
    {
      name: "export",
      label: "v1 /universities/{id}/export",
      paths: varied(() => `/api/v1/universities/${pick(scanned)}/export`),
      modes: ["uncached"],
    },
    {
      name: "stats",
      label: "v1 /stats",
      paths: fixed("/api/v1/stats"),
      modes: ["uncached"],
    },
    {
      name: "list-v2",
      label: "v2 /universities?page= (any page of 20)",
      paths: varied(() => `/api/v2/universities?page=${1 + Math.floor(rnd() * Math.ceil(ids.length / 20))}`),
      modes: ["uncached"],
    },
    {
      name: "university-v2",
      label: "v2 /universities/{id} (with its latest scan and ranking)",
      paths: varied(() => `/api/v2/universities/${pick(ids)}`),
      modes: ["uncached"],
    },
    {
      name: "compare-v2",
      label: "v2 /compare (10 ids)",
      paths: varied(() => `/api/v2/compare?ids=${tenIds()}`),
      modes: ["uncached"],
    },
    {
      name: "countries",
      label: "v2 /countries",
      paths: fixed("/api/v2/countries"),
      modes: ["uncached"],
    },
    {
      name: "explorer-view",
      label: "v2 /explorer/view",
      paths: fixed("/api/v2/explorer/view"),
      modes: ["uncached"],
    },
    {
      name: "schema",
      label: "v2 /schema",
      paths: fixed("/api/v2/schema"),
      modes: ["uncached"],
    },
    {
      name: "methodology",
      label: "v2 /methodology (30 KB)",
      paths: fixed("/api/v2/methodology"),
      modes: ["uncached"],
    },
    {
      name: "health",
      label: "/health",
      paths: fixed("/health"),
      modes: ["uncached"],
    },
  ];
  db.close();
  return scenarios;
}

/**
 * Asks each distinct path of a scenario that has few of them (the categories of leaderboards) once, in turn, so
 * that what each needs is built (a ranking, its serialised rows) before the load is measured; a scenario of
 * many distinct paths is asked its first path only (the search index, a ranking).
 */
export async function prepareScenario(base: string, paths: readonly string[]): Promise<void> {
  const distinct = [...new Set(paths)];
  for (const path of distinct.length <= 50 ? distinct : distinct.slice(0, 1)) {
    await (await fetch(`${base}${path}`)).arrayBuffer();
  }
}
