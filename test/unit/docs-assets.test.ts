import { expect, test } from "bun:test";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");

/**
 * Swagger UI's script and style are not held by a server until `/docs/assets/` is asked for them
 * (`src/http/swagger-ui-assets.ts`). Run in a process of its own: the test runner's module registry is shared.
 */
test("the Swagger UI files are imported when first asked for, not with the app", () => {
  const script = `
    const { withDocs } = await import(${JSON.stringify(join(ROOT, "src/http/docs.ts"))});
    await import(${JSON.stringify(join(ROOT, "src/http/app.ts"))});
    const loaded = () => Object.keys(require.cache).some((k) => k.endsWith("swagger-ui-assets.ts"));
    const before = loaded();
    const css = withDocs([]).find((r) => r.path === "/docs/assets/swagger-ui.css");
    const { data } = await css.handle({});
    console.log(JSON.stringify({ before, after: loaded(), length: data.length, sourceMap: /sourceMappingURL/.test(data) }));
  `;
  const run = Bun.spawnSync([process.execPath, "-e", script], { cwd: ROOT });
  expect(run.exitCode).toBe(0);
  const seen = JSON.parse(run.stdout.toString().trim());
  expect(seen).toEqual({ before: false, after: true, length: expect.any(Number), sourceMap: false });
  expect(seen.length).toBeGreaterThan(100_000);
});
