/**
 * The core is runtime-neutral: `unirank`, `unirank/scanner`, `unirank/seed` and `unirank/webhooks` bundle for the browser, and no
 * file of the core imports a Node or Bun module (tsconfig.core.json and Biome's noRestrictedImports hold the same
 * line while editing). Third-party code may still reach for a Node module the bundler polyfills (csv-parse's
 * stream); the test names those so a new one is noticed.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const OUT = join(ROOT, "node_modules/.cache/unirank-core-browser");
const CORE_ENTRIES = [
  "lib/index.ts",
  "lib/scanner/index.ts",
  "lib/seed/index.ts",
  "lib/webhooks/receiver.ts",
];
/** Node modules third-party code in the core's graph needs, polyfilled by the bundler: csv-parse's stream (and what it uses). */
const THIRD_PARTY_NODE = ["node:buffer", "node:events", "node:stream"];

interface Metafile {
  inputs: Record<string, { imports: { path: string; external?: boolean }[] }>;
}

afterAll(() => rmSync(OUT, { recursive: true, force: true }));

test("the core bundles for the browser; no file of it imports a Node or Bun module", async () => {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const result = await Bun.build({
    entrypoints: CORE_ENTRIES.map((e) => join(ROOT, e)),
    root: ROOT,
    outdir: OUT,
    target: "browser",
    format: "esm",
    splitting: true,
    external: ["kysely"],
    metafile: true,
  } as Parameters<typeof Bun.build>[0] & { metafile: true });
  expect(result.logs.map(String)).toEqual([]);
  expect(result.success).toBe(true);
  const { inputs } = (result as unknown as { metafile: Metafile }).metafile;
  const own = Object.entries(inputs).filter(([file]) => file.startsWith("lib/"));
  expect(own.length).toBeGreaterThan(40);
  for (const [file, { imports }] of own) {
    expect(file.startsWith("lib/node/"), file).toBe(false);
    for (const { path } of imports) expect(path, `${file} imports ${path}`).not.toMatch(/^(node:|bun(:|$))/);
  }
  const nodeInputs = Object.keys(inputs).filter((f) => /^(node:|bun(:|$))/.test(f));
  expect(nodeInputs.sort()).toEqual(THIRD_PARTY_NODE);
});

test("the browser bundle runs: parameters, the catalogue, API-key hashing, webhook signatures, the seed", async () => {
  const core = await import(join(OUT, "lib/index.js"));
  const seed = await import(join(OUT, "lib/seed/index.js"));
  const scanner = await import(join(OUT, "lib/scanner/index.js"));
  // The rubrics re-score stored observations in a browser: Lighthouse's curve gives 0.5 at its median.
  expect(scanner.logNormalScore({ p10: 1200, median: 2400 }, 2400)).toBeCloseTo(0.5, 2);
  expect(core.parseParams(core.RankingsParams, { limit: "3", sort: "technical" })).toMatchObject({
    limit: 3,
  });
  expect(() => core.parseParams(core.RankingsParams, { limit: "0" })).toThrow();
  expect(core.SUB_SCORE_NAMES).toHaveLength(34);
  const signature = core.signRequest("urs_example", 1772366400, "GET", "/api/v2/universities?limit=5");
  expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
  const body = '{"event":"scan.completed"}';
  expect(await core.verifyWebhookSignature("s", body, await core.signWebhookBody("s", body))).toBe(true);
  const records = [...seed.generateDataset({ universities: 3, seed: 5 })];
  expect(records.length).toBeGreaterThan(3);
});
