import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Random } from "../../lib/seed/random.ts";
import { tempDir } from "../support/databases.ts";
import { runCli, type ServeProcess, startServe } from "../support/serve-process.ts";

/**
 * Cursor paging against a real `unirank serve` while `unirank import` processes write the same file: 10,000
 * universities walked 100 a page, and their ranking, while five imports add universities, rename others (moving
 * them across the walk's position) and add scans that reorder the ranking. Every university of the list as it
 * stood at the first page is seen exactly once.
 */
const UNIVERSITIES = 10_000;
const IMPORTS = 5;

const WORDS = ["Alpha", "Nord", "Zeta", "Université", "大学", "Beta", "Mid", "Omega", "جامعة", "Kappa"];

describe("cursor paging while imports write", () => {
  let dir: string;
  let db: string;
  let serve: ServeProcess;
  const random = new Random(27);
  const rnd = () => random.next();
  const name = () => `${WORDS[Math.floor(rnd() * WORDS.length)]} ${Math.floor(rnd() * 1e6)}`;
  const score = () => Math.round(rnd() * 1000) / 10;
  const domain = (i: number) => `u${i}.walk.example`;
  const scan = (i: number, id: string, completed: string) =>
    JSON.stringify({
      type: "scan",
      source_id: id,
      domain: domain(i),
      status: "completed",
      completed_at: completed,
      overall_score: score(),
    });

  beforeAll(async () => {
    dir = tempDir("unirank-walk-");
    db = join(dir, "walk.db");
    const lines: string[] = [];
    for (let i = 0; i < UNIVERSITIES; i++) {
      lines.push(
        JSON.stringify({ type: "university", domain: domain(i), name: name(), country: i % 2 ? "DE" : "FR" }),
      );
      lines.push(scan(i, `s-${i}`, "2026-01-01T00:00:00+00:00"));
    }
    writeFileSync(join(dir, "base.ndjson"), `${lines.join("\n")}\n`);
    const base = await runCli(["import", join(dir, "base.ndjson"), "--db", db, "--no-events"]);
    expect(base.code).toBe(0);
    for (let k = 0; k < IMPORTS; k++) {
      const more: string[] = [];
      for (let j = 0; j < 100; j++) {
        const i = UNIVERSITIES + k * 100 + j;
        more.push(JSON.stringify({ type: "university", domain: domain(i), name: name(), country: "DE" }));
      }
      for (let j = 0; j < 50; j++) {
        const i = Math.floor(rnd() * UNIVERSITIES);
        more.push(
          JSON.stringify({
            type: "university",
            domain: domain(i),
            name: name(),
            country: i % 2 ? "DE" : "FR",
          }),
        );
      }
      for (let j = 0; j < 300; j++)
        more.push(
          scan(
            Math.floor(rnd() * UNIVERSITIES),
            `m-${k}-${j}`,
            `2026-02-${String(k + 1).padStart(2, "0")}T00:00:00+00:00`,
          ),
        );
      writeFileSync(join(dir, `more-${k}.ndjson`), `${more.join("\n")}\n`);
    }
    serve = await startServe(["--db", db, "--rate-limit", "0"]);
  }, 180_000);
  afterAll(async () => {
    await serve?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("every university, and every ranked one, exactly once", async () => {
    const get = async (path: string) => {
      const r = await fetch(serve.url + path);
      expect(r.status).toBe(200);
      return r.json();
    };
    let imported = 0;
    const imports = (async () => {
      for (let k = 0; k < IMPORTS; k++) {
        const r = await runCli(["import", join(dir, `more-${k}.ndjson`), "--db", db, "--no-events"]);
        expect(r.code).toBe(0);
        imported++;
      }
    })();
    const universities: number[] = [];
    const ranked: { id: number; rank: number }[] = [];
    const cursors: (string | null)[] = ["*", "*"];
    const totals: number[] = [];
    for (let page = 1; cursors.some((c) => c !== null); page++) {
      const [u, r] = cursors;
      if (u !== null) {
        const body = await get(`/api/v2/universities?limit=100&cursor=${u}`);
        universities.push(...body.data.map((x: { id: number }) => x.id));
        totals.push(body.meta.total);
        cursors[0] = body.meta.next_cursor;
      }
      if (r !== null) {
        const body = await get(`/api/v2/rankings?limit=100&cursor=${r}`);
        ranked.push(...body.data.map((x: { id: number; rank: number }) => ({ id: x.id, rank: x.rank })));
        cursors[1] = body.meta.next_cursor;
      }
      // Keep the walks and the imports interleaved: another import lands every twenty pages.
      const due = Math.min(IMPORTS, Math.floor(page / 20));
      for (let waited = 0; imported < due; waited++) {
        expect(waited).toBeLessThan(1200);
        await Bun.sleep(50);
      }
    }
    await imports;
    expect(imported).toBe(IMPORTS);
    // The universities of the first page's list: ids 1..10,000, each once, none of those added meanwhile.
    expect(new Set(totals)).toEqual(new Set([UNIVERSITIES]));
    expect(universities.length).toBe(UNIVERSITIES);
    expect(new Set(universities).size).toBe(UNIVERSITIES);
    expect(Math.min(...universities)).toBe(1);
    expect(Math.max(...universities)).toBe(UNIVERSITIES);
    // The ranking as it stood at the first page: every university once, ranks never going down the list.
    expect(new Set(ranked.map((x) => x.id)).size).toBe(UNIVERSITIES);
    expect(ranked.length).toBe(UNIVERSITIES);
    for (let i = 1; i < ranked.length; i++)
      expect(ranked[i]!.rank).toBeGreaterThanOrEqual(ranked[i - 1]!.rank);
    // And the writes were real: the list has grown and the ranking moved since.
    const now = await get("/api/v2/universities?limit=1");
    expect(now.meta.total).toBe(UNIVERSITIES + IMPORTS * 100);
    const top = await get("/api/v2/rankings?limit=100");
    expect(top.data.map((x: { id: number }) => x.id)).not.toEqual(ranked.slice(0, 100).map((x) => x.id));
  }, 300_000);
});
