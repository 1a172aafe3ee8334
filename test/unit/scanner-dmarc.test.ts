import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { discoverDmarc } from "../../lib/scanner/dmarc.ts";

/** RFC 7489's grammar, policy discovery and examples (test/reference/rfc7489/cases.json), through unirank's parser. */

const data = JSON.parse(readFileSync(join(import.meta.dir, "../reference/rfc7489/cases.json"), "utf8")) as {
  cases: { from: string; records: string[]; expect: Record<string, unknown> & { ok: boolean } }[];
};

describe("RFC 7489 cases", () => {
  test("examples and grammar cases are all there", () => {
    expect(data.cases.length).toBe(33);
  });
  test.each(data.cases.map((c) => [c.from, c] as const))("%s", (_, c) => {
    const got = discoverDmarc(c.records);
    expect({ ok: got.ok, why: got.ok ? "" : got.reason }).toMatchObject({ ok: c.expect.ok });
    if (!got.ok) return;
    const { ok: _ok, ...fields } = c.expect;
    expect(got.record).toMatchObject(fields);
  });
});
