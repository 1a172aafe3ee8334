import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/databases.ts";

/**
 * deploy/unirank.service as systemd reads it: `systemd-analyze verify` with no warning at all (an unknown or
 * misspelt key only warns), and `systemd-analyze security --offline` rating its exposure OK. Skips (saying so)
 * without systemd-analyze (Debian's `systemd` package).
 */

const ANALYZE = Bun.which("systemd-analyze");
if (!ANALYZE) {
  console.warn("[unirank tests] ops-systemd is skipped: no systemd-analyze (apt-get install -y systemd)");
}
const UNIT = join(import.meta.dir, "..", "..", "deploy", "unirank.service");
const dir = tempDir("unirank-systemd-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The unit as shipped, its ExecStart pointing at a stand-in executable (verify checks the binary exists). */
function unitHere(): string {
  const binary = join(dir, "unirank");
  writeFileSync(binary, "#!/bin/sh\nexit 0\n");
  chmodSync(binary, 0o755);
  const text = readFileSync(UNIT, "utf8");
  expect(text).toContain("ExecStart=/usr/local/bin/unirank serve ");
  const path = join(dir, "unirank.service");
  writeFileSync(path, text.replaceAll("/usr/local/bin/unirank", binary));
  return path;
}

const analyze = async (args: string[]) => {
  const p = Bun.spawn([ANALYZE as string, ...args], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  return { out, err, code };
};

describe.skipIf(!ANALYZE)("the systemd unit", () => {
  test("systemd-analyze verify accepts it without a warning", async () => {
    const r = await analyze(["verify", unitHere()]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
  });

  test("it is hardened: DynamicUser, ProtectSystem=strict, its own state directory; exposure rated OK", async () => {
    const text = readFileSync(UNIT, "utf8");
    for (const line of [
      "DynamicUser=yes",
      "ProtectSystem=strict",
      "StateDirectory=unirank",
      "NoNewPrivileges=yes",
    ])
      expect(text).toContain(`\n${line}\n`);
    const r = await analyze(["security", "--offline=true", unitHere()]);
    const level = /Overall exposure level for [^:]+: ([0-9.]+) (\w+)/.exec(r.out);
    expect(level?.[2]).toBe("OK");
    expect(Number(level?.[1])).toBeLessThan(2);
  });
});
