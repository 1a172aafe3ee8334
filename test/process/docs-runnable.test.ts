import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/databases.ts";
import { type ServeProcess, startServe } from "../support/serve-process.ts";

/**
 * The docs as a user follows them on a clean clone after `npm install`: every `curl` line of README.md and docs/
 * that asks the local server (`127.0.0.1:3000`) answers 2xx from a served demo, and every line of a shell block
 * marked `<!-- runnable -->` exits 0, run in a scratch directory that holds the checkout's files. The one change
 * made to a line is the port: the demo is served on a free one. Lines that reach other hosts (a scan), start a
 * server or need a file of the reader's own are in blocks not marked runnable.
 */

const ROOT = join(import.meta.dir, "..", "..");
const DOCS = ["README.md", ...readdirSync(join(ROOT, "docs")).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith(".md"),
);
/** What a clean clone has after `npm install`, as far as the commands of the docs read it. */
const CHECKOUT = [
  "src",
  "lib",
  "data",
  "explorer",
  "node_modules",
  "package.json",
  "tsconfig.json",
  "bunfig.toml",
];

interface DocLine {
  where: string;
  line: string;
}

/** The shell blocks of a Markdown file, each with whether the line before its fence marks it runnable. */
function shellBlocks(file: string): { runnable: boolean; lines: DocLine[] }[] {
  const text = readFileSync(join(ROOT, file), "utf8").split("\n");
  const blocks: { runnable: boolean; lines: DocLine[] }[] = [];
  for (let i = 0; i < text.length; i++) {
    if (!/^```(sh|bash|shell)\s*$/.test(text[i] ?? "")) continue;
    const runnable = (text[i - 1] ?? "").trim() === "<!-- runnable -->";
    const lines: DocLine[] = [];
    for (i++; i < text.length && !(text[i] ?? "").startsWith("```"); i++) {
      const start = i;
      let line = (text[i] ?? "").trim();
      // A line continued with a backslash is one command.
      while (line.endsWith("\\") && i + 1 < text.length)
        line = `${line.slice(0, -1)} ${(text[++i] ?? "").trim()}`;
      if (line && !line.startsWith("#")) lines.push({ where: `${file}:${start + 1}`, line });
    }
    blocks.push({ runnable, lines });
  }
  return blocks;
}

const blocks = DOCS.flatMap(shellBlocks);
const curlLines = blocks
  .flatMap((b) => b.lines)
  .filter(({ line }) => /^curl\b/.test(line) && line.includes("127.0.0.1:3000") && !line.includes("$"));
const runnableLines = blocks.filter((b) => b.runnable).flatMap((b) => b.lines);

let scratch = "";
let serve: ServeProcess;

beforeAll(async () => {
  scratch = tempDir("unirank-docs-");
  for (const entry of CHECKOUT) symlinkSync(join(ROOT, entry), join(scratch, entry));
  serve = await startServe(["--db", join(scratch, "unirank.db"), "--rate-limit", "0"]);
}, 120_000);

afterAll(async () => {
  await serve?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Runs one line as the reader would, in bash, in the scratch checkout; curl fails on an HTTP error. */
async function run(line: string) {
  const port = new URL(serve.url).port;
  const script = [
    "set -o pipefail",
    'curl() { command curl --fail --silent --show-error "$@"; }',
    line.replaceAll("127.0.0.1:3000", `127.0.0.1:${port}`),
  ].join("\n");
  const proc = Bun.spawn(["bash", "-c", script], { cwd: scratch, stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  return { code, out: out.slice(0, 300), err: err.slice(-600) };
}

describe("the docs, followed literally", () => {
  test("they hold curl lines for the served demo, and runnable blocks", () => {
    expect(curlLines.length).toBeGreaterThan(20);
    expect(runnableLines.length).toBeGreaterThan(0);
  });

  test("every curl line asking the local server answers 2xx", async () => {
    const failed: string[] = [];
    for (const { where, line } of curlLines) {
      const r = await run(line);
      if (r.code !== 0) failed.push(`${where}: ${line}\n  → exit ${r.code}: ${r.err}`);
    }
    expect(failed).toEqual([]);
  }, 120_000);

  test("every line of a runnable block exits 0, in order", async () => {
    for (const { where, line } of runnableLines) {
      const r = await run(line);
      expect([where, line, r.code, r.code === 0 ? "" : r.err]).toEqual([where, line, 0, ""]);
    }
  }, 300_000);
});
