/**
 * The parts of docs/ that mirror code, checked against it so they cannot drift: the score table (docs/scores.md)
 * against the catalogue, the command reference (docs/cli.md) against the commands' definitions, the configuration
 * table against src/config.ts; the README stays a short front page; code comments quote no measured figures
 * (those live in docs/performance.md).
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { CATEGORIES, SCORES } from "../../lib/index.ts";
import { buildCli } from "../../src/cli.ts";

const ROOT = resolve(import.meta.dir, "../..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

/** The cells of the Markdown table rows whose first cell starts with `first`. */
function rows(markdown: string, first: RegExp): string[][] {
  return markdown
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    )
    .filter((cells) => first.test(cells[0] ?? ""));
}

test("docs/scores.md: one row per score of the catalogue, with its group, label and what it measures", () => {
  const table = rows(read("docs/scores.md"), /^`[a-z0-9_]+_score`$/);
  expect(table.map((cells) => cells[0])).toEqual(SCORES.map((s) => `\`${s.name}\``));
  for (const [i, score] of SCORES.entries()) {
    const [, group, label, measures] = table[i] ?? [];
    expect({ name: score.name, group, label, measures }).toEqual({
      name: score.name,
      group: score.group,
      label: score.label,
      // A composite's row also says how many sub-scores it averages.
      measures:
        score.group === "composite" ? `${score.measures} (${score.from?.length} sub-scores)` : score.measures,
    });
  }
  const categories = rows(read("docs/scores.md"), /^`[a-z0-9]+`$/).filter((cells) =>
    /_score`$/.test(cells[1] ?? ""),
  );
  expect(Object.fromEntries(categories.map((c) => [c[0]?.slice(1, -1), c[1]?.slice(1, -1)]))).toEqual({
    ...CATEGORIES,
  });
});

interface CommandInfo {
  path: string;
  options: string[];
}

/** A command that runs something itself (`scan`), not only a group of subcommands (`webhooks`). */
const hasAction = (command: Command): boolean =>
  (command as unknown as { _actionHandler: unknown })._actionHandler != null;

function commands(command: Command, parents: string[] = []): CommandInfo[] {
  const path = [...parents, command.name()];
  const own =
    parents.length > 0 && (command.commands.length === 0 || hasAction(command))
      ? [{ path: path.join(" "), options: command.options.map((o) => o.long ?? o.flags) }]
      : [];
  return [...own, ...command.commands.flatMap((c) => commands(c, path))];
}

test("docs/cli.md: every command and every option of the command line is in the reference", () => {
  const doc = read("docs/cli.md");
  const all = commands(buildCli());
  expect(all.length).toBeGreaterThanOrEqual(15);
  const serveTable = rows(doc, /^`--[a-z-]+/).map((cells) => cells[0] ?? "");
  for (const { path, options } of all) {
    const row = rows(doc, new RegExp(`^\`${path}( <[^>]+>)*\`$`));
    expect(row.length, `docs/cli.md has a row for \`${path}\``).toBe(1);
    const text = (row[0] ?? []).slice(1).join(" ");
    for (const option of options) {
      const documented =
        path === "unirank serve"
          ? serveTable.some((c) => c.startsWith(`\`${option}`))
          : text.includes(`\`${option}`);
      expect(documented, `${path} ${option} is documented`).toBe(true);
    }
  }
  // And nothing documented that the command line does not have.
  const known = new Set(all.flatMap((c) => c.options));
  for (const cell of serveTable) expect(known.has(cell.slice(1).split(/[ `]/)[0] ?? ""), cell).toBe(true);
  const documentedCommands = rows(doc, /^`unirank [a-z ]+( <[^>]+>)*`$/).map((cells) =>
    cells[0]?.replace(/( <[^>]+>)*`$/, "").slice(1),
  );
  expect(documentedCommands.sort()).toEqual(all.map((c) => c.path).sort());
});

test("docs/cli.md: the configuration table names exactly the variables src/config.ts reads", () => {
  const read_ = new Set([...read("src/config.ts").matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]));
  expect(read_.size).toBeGreaterThanOrEqual(10);
  const table = rows(read("docs/cli.md"), /^(`--|\()/).map((cells) => cells[1] ?? "");
  const documented = new Set(
    table.flatMap((cell) => [...cell.matchAll(/`([A-Z][A-Z0-9_]+)/g)].map((m) => m[1])),
  );
  expect([...documented].sort()).toEqual([...read_].sort());
});

test("the README is a front page under 12 KB whose links lead somewhere", () => {
  expect(statSync(join(ROOT, "README.md")).size).toBeLessThan(12 * 1024);
  const readme = read("README.md");
  const links = [...readme.matchAll(/\]\(((?!https?:|#)[^)#]+)/g)].map((m) => m[1] ?? "");
  expect(links.length).toBeGreaterThan(5);
  for (const link of links) expect(existsSync(join(ROOT, link)), link).toBe(true);
});

test("code comments quote no µs or % figures (they belong in docs/performance.md)", () => {
  const offenders: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const file = join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith(".ts"))
        read(file)
          .split("\n")
          .forEach((line, i) => {
            const comment = /^\s*(\/\/|\/?\*)/.test(line) ? line : (line.split(" // ")[1] ?? "");
            if (/\d\s*(µs|%)/.test(comment)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
          });
    }
  };
  for (const dir of ["lib", "src"]) walk(dir);
  expect(offenders).toEqual([]);
});

test("docs/scanner.md: one row per own-site check, with its maximum (the best modifier for security headers)", async () => {
  const { OWN_SITE_CHECKS } = await import("../../lib/scanner/score-observations.ts");
  const table = rows(read("docs/scanner.md"), /^`[a-z0-9]+\.[a-z0-9-]+`$/);
  expect(table.map((cells) => `${cells[0]?.slice(1, -1)} ${cells[1]}`).sort()).toEqual(
    OWN_SITE_CHECKS.map((c) => `${c.id} ${c.max}`).sort(),
  );
});
