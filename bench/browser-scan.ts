/**
 * Seconds per university with Chromium: the browser part over the loopback fixture pages (light, heavy,
 * inaccessible, no viewport), one university after another (each in its own Chromium).
 *
 *   bun bench/browser-scan.ts [--rounds N] [--chromium PATH]
 */
import { browserPart } from "../src/scanner/browser/browser-part.ts";
import { guardedLookup } from "../src/scanner/scan-context.ts";
import { startBrowserFixtures } from "../test/support/browser-fixtures.ts";

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const rounds = Number(arg("--rounds") ?? 2);
const chromiumPath = arg("--chromium") ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const fixtures = await startBrowserFixtures();
const part = browserPart({
  chromiumPath,
  homeUrl: (d) => `http://${d}/`,
  lookup: guardedLookup({ resolver: fixtures.resolver, allowPrivateTargets: true }),
});
const names = ["light", "heavy", "a11y", "noviewport"] as const;
const seconds: Record<string, number[]> = {};
try {
  const t0 = performance.now();
  await part({ domain: fixtures.domain("light") }, { userAgent: "unirank-bench" });
  console.log(
    `first university (includes loading playwright-core and axe-core): ${((performance.now() - t0) / 1000).toFixed(2)} s`,
  );
  for (let r = 0; r < rounds; r++) {
    for (const name of names) {
      const t = performance.now();
      const result = await part({ domain: fixtures.domain(name) }, { userAgent: "unirank-bench" });
      const s = (performance.now() - t) / 1000;
      if (Object.keys(result.unmeasured).length > 0)
        throw new Error(`${name}: ${JSON.stringify(result.unmeasured)}`);
      seconds[name] = [...(seconds[name] ?? []), s];
    }
  }
} finally {
  await part.close();
  await fixtures.stop();
}
const all = Object.values(seconds).flat();
for (const name of names) {
  const s = seconds[name] ?? [];
  console.log(`${name.padEnd(11)} ${s.map((x) => x.toFixed(2)).join("  ")} s`);
}
console.log(
  `mean ${(all.reduce((a, b) => a + b, 0) / all.length).toFixed(2)} s per university over ${all.length} scans`,
);
