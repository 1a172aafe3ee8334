import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { methodology, migrate } from "../../lib/index.ts";
import { type OpenedDatabase, openDatabase } from "../../src/db/open.ts";
import { tempDir } from "../support/databases.ts";
import { appClient, type Client, testContext } from "../support/fixtures-app.ts";

/**
 * `GET /api/v2/methodology` is the rubrics' own tables; the check tables of docs/scanner.md and
 * docs/scanner-browser-and-sources.md are held against its answer, so neither can drift.
 */

const ROOT = resolve(import.meta.dir, "../..");
let dir: string;
let opened: OpenedDatabase;
let client: Client;

beforeAll(async () => {
  dir = tempDir("unirank-methodology-");
  opened = await openDatabase(join(dir, "db.sqlite"));
  await migrate(opened.db);
  client = appClient(testContext(opened.db));
});

afterAll(async () => {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Listed {
  id: string;
  score: string;
  max: number | null;
}

/**
 * The rows of every check table in a document: `[id, points]`, the points read from the column named Points
 * (or Best, the security headers' best modifier); a `<form>` in an id stands for desktop and mobile.
 */
function documentedChecks(file: string): [string, number | null][] {
  const out: [string, number | null][] = [];
  let column = -1;
  for (const line of readFileSync(join(ROOT, file), "utf8").split("\n")) {
    if (!line.startsWith("|")) {
      column = -1;
      continue;
    }
    const cells = line
      .slice(1, -1)
      .split("|")
      .map((c) => c.trim());
    if (column < 0) {
      column = cells[0] === "Check" ? cells.findIndex((c) => c === "Points" || c === "Best") : -2;
      continue;
    }
    const id = /^`([a-z0-9<>-]+\.[a-z0-9<>-]+)`$/.exec(cells[0] ?? "")?.[1];
    if (column < 0 || !id) continue;
    const points = /^[0-9]+$/.test(cells[column] ?? "") ? Number(cells[column]) : null;
    const ids = id.includes("<form>") ? ["desktop", "mobile"].map((f) => id.replace("<form>", f)) : [id];
    for (const one of ids) out.push([one, points]);
  }
  return out;
}

test("GET /api/v2/methodology answers the rubrics' tables", async () => {
  const r = await client.fetch("/api/v2/methodology");
  expect(r.status).toBe(200);
  const body = (await r.json()) as { data: ReturnType<typeof methodology> };
  expect(body.data).toEqual(JSON.parse(JSON.stringify(methodology())));
  expect(body.data.checks.length).toBeGreaterThan(80);
});

test("the check tables of the scanner docs are the methodology's checks, with their points", async () => {
  const { data } = (await (await client.fetch("/api/v2/methodology")).json()) as {
    data: { checks: Listed[] };
  };
  const documented = [
    ...documentedChecks("docs/scanner.md"),
    ...documentedChecks("docs/scanner-browser-and-sources.md"),
  ];
  const ids = documented.map(([id]) => id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(documented.sort()).toEqual(data.checks.map((c): [string, number | null] => [c.id, c.max]).sort());
});

test("docs/scores.md names the composite weights the methodology gives", async () => {
  const { data } = (await (await client.fetch("/api/v2/methodology")).json()) as {
    data: { composites: { label: string; weight: number }[] };
  };
  const scores = readFileSync(join(ROOT, "docs/scores.md"), "utf8");
  for (const c of data.composites)
    expect(scores).toContain(`${Math.round(c.weight * 100)} % ${c.label.toLowerCase()}`);
});
