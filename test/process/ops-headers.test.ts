import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { checkServerIdentity, type PeerCertificate } from "node:tls";
import type { ScanOutcome } from "../../lib/scanner/index.ts";
import { scoreObservations } from "../../lib/scanner/score-observations.ts";
import { scanUniversity } from "../../src/scanner/scan-university.ts";
import { tempDir } from "../support/databases.ts";
import { type ScanWeb, startScanWeb } from "../support/scan-web.ts";
import { type ServeProcess, startServe } from "../support/serve-process.ts";

/**
 * Security headers of a real `unirank serve`: on its HTML pages and its JSON answers, and as unirank's own
 * scanner grades them with unirank behind a loopback TLS terminator (certificate from a test CA, plain HTTP
 * redirected to HTTPS), as it would be deployed.
 */

let dir: string;
let serve: ServeProcess;
let web: ScanWeb;
let outcome: ScanOutcome;

beforeAll(async () => {
  dir = tempDir("unirank-headers-");
  serve = await startServe(["--db", join(dir, "u.db"), "--rate-limit", "0"]);
  const { hostname, port } = new URL(serve.url);
  web = await startScanWeb([{ domain: "self.test", proxyTo: { host: hostname, port: Number(port) } }]);
  outcome = await scanUniversity(
    { domain: "self.test" },
    {
      resolver: web.resolver,
      ports: web.ports,
      ca: [web.ca],
      allowPrivateTargets: true,
      delayMs: 0,
      requestTimeoutMs: 5000,
      maxPages: 2,
    },
  );
}, 90_000);

afterAll(async () => {
  await web?.close();
  await serve?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const headersOf = (r: Response) => Object.fromEntries([...r.headers].map(([k, v]) => [k.toLowerCase(), v]));

describe("security headers", () => {
  test("the explorer and /docs send their policy as headers, with frame-ancestors 'none'", async () => {
    for (const path of ["/", "/docs"]) {
      const r = await fetch(`${serve.url}${path}`);
      expect(r.status).toBe(200);
      const h = headersOf(r);
      const body = await r.text();
      expect(h["content-type"]).toBe("text/html; charset=utf-8");
      const csp = h["content-security-policy"] ?? "";
      const directives = new Map(
        csp.split(";").map((d) => {
          const [name, ...sources] = d.trim().split(/\s+/);
          return [name, sources.join(" ")];
        }),
      );
      expect(directives.get("default-src")).toBe("'none'");
      expect(directives.get("frame-ancestors")).toBe("'none'");
      expect(directives.get("script-src")).toBe("'self'");
      expect(directives.get("style-src")).toBe("'self'");
      expect(csp).not.toContain("unsafe");
      expect(h).toMatchObject({
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
        "referrer-policy": "no-referrer",
        "cross-origin-opener-policy": "same-origin",
        "cross-origin-resource-policy": "same-origin",
        "strict-transport-security": "max-age=31536000",
      });
      expect(h["permissions-policy"]).toContain("camera=()");
      // No inline script or style for the policy to refuse.
      expect(body).not.toMatch(/<script>|<style|style="/);
    }
  });

  test("JSON answers, errors and assets say nosniff and carry no page policy", async () => {
    for (const [path, status] of [
      ["/api/v1/rankings?limit=1", 200],
      ["/api/v2/universities/1", 200],
      ["/api/v1/universities/999999", 404],
      ["/health", 200],
      ["/explorer/app.js", 200],
    ] as const) {
      const r = await fetch(`${serve.url}${path}`);
      await r.arrayBuffer();
      expect([path, r.status]).toEqual([path, status]);
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
      expect(r.headers.get("content-security-policy")).toBeNull();
    }
  });
});

/** The self-scan's evidence (a completed scan always has it). */
function evidence() {
  if (!outcome.evidence) throw new Error("the self-scan kept no evidence");
  return outcome.evidence;
}

describe("unirank's own scanner, pointed at unirank behind a TLS terminator", () => {
  test("the explorer page gets the top security-header grade", () => {
    expect(outcome.status).toBe("completed");
    expect(evidence().observations?.home?.url).toBe("https://self.test/");
    expect(outcome.scores.tech_security_headers_score).toBe(100);
    // The HTTP Observatory's own grade of the page, as the scanner computes it.
    expect(evidence().grades?.tech_security_headers_score?.grade).toBe("A+");
    const points = Object.fromEntries(
      evidence()
        .checks.filter((c) => c.id.startsWith("headers."))
        .map((c) => [c.id, c.points]),
    );
    expect(points).toMatchObject({
      "headers.csp": 10,
      "headers.content-type-options": 0,
      "headers.frame-options": 5,
      "headers.referrer-policy": 5,
      "headers.redirection": 0,
    });
    // Every check at its best: no penalty anywhere.
    for (const c of evidence().checks.filter((x) => x.id.startsWith("headers.")))
      expect([c.id, c.points]).toEqual([c.id, c.max]);
    expect(outcome.scores.tech_hsts_score).toBeGreaterThan(0);
  });

  test("the docs page, through the same terminator, gets the same grade", async () => {
    // The name resolves through the fixture DNS only: connect to its loopback address, check the name it proves.
    const address = web.addresses.get("self.test") as string;
    const r = await fetch(`https://${address}:${web.ports.https}/docs`, {
      tls: {
        ca: web.ca,
        checkServerIdentity: (_: string, cert: PeerCertificate) => checkServerIdentity("self.test", cert),
      },
    } as RequestInit);
    expect(r.status).toBe(200);
    const observations = evidence().observations;
    if (!observations?.home) throw new Error("the scan kept no observations of the home page");
    const docs = { ...observations, home: { ...observations.home, headers: headersOf(r) } };
    await r.arrayBuffer();
    const scored = scoreObservations(docs);
    expect(scored.scores.tech_security_headers_score).toBe(100);
    expect(scored.grades?.tech_security_headers_score?.grade).toBe("A+");
  });
});
