import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseIp } from "../../lib/scanner/ip-address.ts";
import {
  evaluateSpf,
  evaluateSpfPolicy,
  runSpf,
  type SpfAnswer,
  type SpfQuestion,
} from "../../lib/scanner/spf.ts";

/** The RFC 7208 test suite (openspf YAML, as pyspf ships it), run through unirank's evaluator. */

type ZoneEntry = "TIMEOUT" | { type: string; value: unknown };
interface SuiteTest {
  description?: string;
  spec: string | number;
  helo: string;
  host: string;
  mailfrom: string;
  result: string | string[];
  explanation?: string;
}
interface Scenario {
  description: string;
  tests: Record<string, SuiteTest>;
  zonedata: Record<string, (string | Record<string, unknown>)[]>;
}

const suite = Bun.YAML.parse(
  readFileSync(join(import.meta.dir, "../reference/rfc7208/rfc7208-tests.yml"), "utf8"),
) as Scenario[];

/** A scenario's zone as pyspf's driver builds it: SPF-type records copied to TXT unless the name has TXT ones. */
function zoneOf(s: Scenario): Map<string, ZoneEntry[]> {
  const zone = new Map<string, ZoneEntry[]>();
  for (const [name, rows] of Object.entries(s.zonedata)) {
    const entries: ZoneEntry[] = [];
    const copies: ZoneEntry[] = [];
    let copy = true;
    for (const row of rows) {
      if (row === "TIMEOUT") {
        entries.push("TIMEOUT");
        continue;
      }
      for (const [type, raw] of Object.entries(row as Record<string, unknown>)) {
        const value = (type === "TXT" || type === "SPF") && typeof raw === "string" ? [raw] : raw;
        if (type === "TXT") copy = false;
        else if (type === "SPF" && copy) copies.push({ type: "TXT", value });
        if (!(Array.isArray(value) && value.length === 1 && value[0] === "NONE"))
          entries.push({ type, value });
      }
    }
    if (copy) entries.push(...copies);
    zone.set(name.toLowerCase(), entries);
  }
  return zone;
}

const recordText = (type: string, value: unknown): string =>
  type === "TXT"
    ? (value as string[]).join("")
    : type === "MX"
      ? String((value as unknown[])[1])
      : String(value);

/** The driver's DNS: labels over 63 characters and `error.` names time out, one level of CNAME is followed. */
function dnsOf(zone: Map<string, ZoneEntry[]>) {
  const lookup = (raw: string, type: string, level: number): SpfAnswer => {
    const labels = raw.split(".").filter(Boolean);
    if (labels.some((l) => l.length > 63)) return { error: "DNS label too long" };
    const name = labels.join(".");
    const entries = zone.get(name.toLowerCase());
    if (!entries) return name.startsWith("error.") ? { error: "DNS timeout" } : { rcode: 3, records: [] };
    let timeout = true;
    const records: string[] = [];
    for (const e of entries) {
      if (e === "TIMEOUT") {
        if (timeout) return { error: "DNS timeout" };
        break;
      }
      if (e.type === type) timeout = false;
      if (e.value === "TIMEOUT") {
        if (e.type === type) return { error: "DNS timeout" };
        continue;
      }
      if (e.type === type) records.push(recordText(type, e.value));
      if (e.type === "CNAME" && level === 0) {
        const via = lookup(String(e.value), type, 1);
        if ("records" in via) records.push(...via.records);
      }
    }
    return { rcode: 0, records };
  };
  return (q: SpfQuestion) => lookup(q.name, q.type, 0);
}

const cases = suite.flatMap((s) => {
  const dns = dnsOf(zoneOf(s));
  return Object.entries(s.tests).map(([id, t]) => ({ id, scenario: s.description, t, dns }));
});

describe("RFC 7208 test suite (openspf, pyspf's copy)", () => {
  test("every scenario of the suite is read", () => {
    expect(suite.length).toBe(16);
    expect(cases.length).toBeGreaterThan(180);
  });

  test.each(cases.map((c) => [`${c.scenario} › ${c.id}`, c] as const))("%s", (_, { t, dns }) => {
    const ip = parseIp(String(t.host));
    expect(ip).not.toBeNull();
    const got = runSpf(
      evaluateSpf({ ip: ip!, mailFrom: String(t.mailfrom ?? ""), helo: String(t.helo) }),
      dns,
    );
    const allowed = Array.isArray(t.result) ? t.result : [t.result];
    expect({ result: allowed.includes(got.result) ? "agrees" : got.result, why: got.reason }).toMatchObject({
      result: "agrees",
    });
    if (t.explanation !== undefined) expect(got.explanation ?? "DEFAULT").toBe(t.explanation);
  });

  // Syntax errors and processing limits do not depend on the client: the policy evaluation finds them too.
  const permerrors = cases.filter((c) => c.t.result === "permerror");
  test.each(permerrors.map((c) => [`${c.scenario} › ${c.id}`, c] as const))(
    "the published policy of %s is a permerror too",
    (_, { t, dns }) => {
      const mailFrom = String(t.mailfrom ?? "");
      const domain = (mailFrom === "" ? String(t.helo) : mailFrom).split("@").at(-1) as string;
      expect(runSpf(evaluateSpfPolicy(domain), dns).result).toBe("permerror");
    },
  );
});
