import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { migrate, writeRecords } from "../../lib/index.ts";
import { type OpenedDatabase, openDatabase } from "../../src/db/open.ts";
import { availabilityProbe } from "../../src/scanner/availability-probe.ts";
import { tempDir } from "../support/databases.ts";
import { page, type ScanWeb, startScanWeb } from "../support/scan-web.ts";
import { type ServeProcess, startServe } from "../support/serve-process.ts";

/**
 * Availability probes reach a site the way scans do: the scanner's resolver, its address guard and its trust
 * settings, through its HTTP client. Against the loopback fixture web: a site on a loopback address is refused
 * without private targets allowed (nothing reaches it), and a site whose certificate chains to the `--ca-file`
 * CA answers.
 */

let web: ScanWeb;
let dir: string;
const running: ServeProcess[] = [];

beforeAll(async () => {
  web = await startScanWeb([
    { domain: "probe.test", https: (_, res) => page(res, "<html><body>up</body></html>") },
    { domain: "down.test", https: (_, res) => page(res, "<html><body>down</body></html>", {}, 503) },
    { domain: "selfsigned.test", cert: "self-signed" },
  ]);
  dir = tempDir("unirank-probes-");
}, 60_000);

afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  await web?.close();
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

const heads = (domain: string) => web.requests.filter((r) => r.startsWith(`${domain} / `)).length;
const settings = () => ({ resolver: web.resolver, ports: web.ports, ca: [web.ca] });

test("a probe asks the scanner's resolver and is refused by its guard: nothing reaches a loopback site", async () => {
  const before = heads("probe.test");
  const probe = availabilityProbe({ ...settings(), allowPrivateTargets: false });
  const result = await probe("probe.test", new AbortController().signal);
  expect(result.answered).toBe(false);
  expect(result.error).toBe(
    `refused: probe.test resolves to ${web.addresses.get("probe.test")}, a loopback, private or reserved address (allow with --allow-private-targets)`,
  );
  expect(heads("probe.test")).toBe(before);
});

test("with private targets allowed, probes reach the site through the scanner's resolver, ports and CA", async () => {
  const probe = availabilityProbe({ ...settings(), allowPrivateTargets: true });
  const before = heads("probe.test");
  expect(await probe("probe.test", new AbortController().signal)).toEqual({
    answered: true,
    status_code: 200,
  });
  expect(heads("probe.test")).toBe(before + 1);
  expect(web.requests.at(-1)).toMatch(/^probe\.test \/ unirank\//);
  expect(await probe("down.test", new AbortController().signal)).toEqual({
    answered: false,
    status_code: 503,
    error: "HTTP 503",
  });
  // Availability is the answer; the certificate is the TLS checks' to score.
  expect(await probe("selfsigned.test", new AbortController().signal)).toEqual({
    answered: true,
    status_code: 200,
  });
  const nowhere = await probe("nowhere.test", new AbortController().signal);
  expect(nowhere.answered).toBe(false);
  expect(nowhere.error).toStartWith("cannot resolve nowhere.test");
});

async function probesOf(opened: OpenedDatabase) {
  return opened.db
    .selectFrom("availability_probes")
    .select(["answered", "status_code", "error"])
    .orderBy("id")
    .execute();
}

async function serveProbing(name: string, extra: string[]) {
  const opened = await openDatabase(join(dir, `${name}.db`));
  await migrate(opened.db);
  await writeRecords(opened.db, [{ type: "university", domain: "probe.test", name: "Probe", country: "FR" }]);
  const s = await startServe([
    "--db",
    join(dir, `${name}.db`),
    "--log-dir",
    join(dir, "logs"),
    // Scans are due every year; the first one starts at once and is done long before the probes are counted.
    "--scan-every",
    "365d",
    "--probe-every",
    "1s",
    "--scan-resolver",
    `${web.resolver.host}:${web.resolver.port}`,
    "--scan-ports",
    `${web.ports.http},${web.ports.https}`,
    ...extra,
  ]);
  running.push(s);
  const deadline = Date.now() + 30_000;
  while ((await probesOf(opened)).length < 2 && Date.now() < deadline) await Bun.sleep(100);
  await s.stop();
  const probes = await probesOf(opened);
  await opened.close();
  return probes;
}

test("serve's probes: refused by the guard without --scan-allow-private-targets, nothing sent", async () => {
  const before = heads("probe.test");
  const probes = await serveProbing("guarded", []);
  expect(probes.length).toBeGreaterThanOrEqual(2);
  for (const p of probes) {
    expect(p.answered).toBe(0);
    expect(p.error).toStartWith("refused: probe.test resolves to 127.0.0.");
  }
  expect(heads("probe.test")).toBe(before);
}, 60_000);

test("serve's probes: a site whose certificate chains to --scan-ca-file answers", async () => {
  const probes = await serveProbing("trusted", [
    "--scan-allow-private-targets",
    "--scan-ca-file",
    web.caFile,
  ]);
  expect(probes.length).toBeGreaterThanOrEqual(2);
  expect(probes.every((p) => p.answered === 1 && p.status_code === 200 && p.error === null)).toBe(true);
}, 60_000);
