import type { CheckPoints, ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { check } from "./points.ts";

const S = "tech_security_headers_score" as const;

/** A CSP as directive name → sources (lower case); null when the header cannot be parsed. */
export function parseCsp(value: string): Map<string, string[]> | null {
  const out = new Map<string, string[]>();
  for (const part of value.split(";")) {
    const tokens = part.trim().split(/\s+/).filter(Boolean);
    const [name, ...sources] = tokens;
    if (!name) continue;
    if (!/^[a-z-]+$/i.test(name)) return null;
    const key = name.toLowerCase();
    if (!out.has(key))
      out.set(
        key,
        sources.map((s) => s.toLowerCase()),
      );
  }
  return out.size === 0 ? null : out;
}

interface Modifier {
  points: number;
  max: number;
  detail: string;
}

/** Observatory's Content Security Policy test. */
function csp(value: string | undefined): Modifier & { frameAncestors: boolean } {
  if (!value)
    return { points: -25, max: 10, detail: "no Content-Security-Policy header", frameAncestors: false };
  const p = parseCsp(value);
  if (!p)
    return {
      points: -25,
      max: 10,
      detail: "Content-Security-Policy cannot be parsed",
      frameAncestors: false,
    };
  const frameAncestors = p.has("frame-ancestors");
  const script = p.get("script-src") ?? p.get("default-src");
  const style = p.get("style-src") ?? p.get("default-src");
  const broad = (s: string) => s === "*" || s === "http:" || s === "https:" || s === "data:";
  const insecure = [...p.values()].flat().some((s) => s === "http:" || s.startsWith("http://"));
  let points: number;
  let detail: string;
  if (!script || script.includes("'unsafe-inline'") || script.some(broad)) {
    points = -20;
    detail = "CSP allows 'unsafe-inline', data: or any origin for scripts (or does not restrict them)";
  } else if (insecure) {
    points = -20;
    detail = "CSP allows resources over http";
  } else if (script.includes("'unsafe-eval'")) {
    points = -10;
    detail = "CSP allows 'unsafe-eval'";
  } else if (style?.includes("'unsafe-inline'")) {
    points = 0;
    detail = "CSP without unsafe sources except 'unsafe-inline' in style-src";
  } else if (p.get("default-src")?.join(" ") === "'none'") {
    points = 10;
    detail = "CSP with default-src 'none' and no unsafe sources";
  } else {
    points = 5;
    detail = "CSP without 'unsafe-inline' or 'unsafe-eval'";
  }
  return { points, max: 10, detail, frameAncestors };
}

function contentTypeOptions(value: string | undefined): Modifier {
  if (!value) return { points: -5, max: 0, detail: "no X-Content-Type-Options header" };
  return value.trim().toLowerCase() === "nosniff"
    ? { points: 0, max: 0, detail: "X-Content-Type-Options: nosniff" }
    : { points: -5, max: 0, detail: `X-Content-Type-Options cannot be recognised: ${value}` };
}

function frameOptions(value: string | undefined, viaCsp: boolean): Modifier {
  if (viaCsp) return { points: 5, max: 5, detail: "framing controlled by CSP frame-ancestors" };
  if (!value) return { points: -20, max: 5, detail: "no X-Frame-Options header nor CSP frame-ancestors" };
  const v = value.trim().toLowerCase();
  if (v === "deny" || v === "sameorigin") return { points: 0, max: 5, detail: `X-Frame-Options: ${value}` };
  if (v.startsWith("allow-from ")) return { points: 0, max: 5, detail: `X-Frame-Options: ${value}` };
  return { points: -20, max: 5, detail: `X-Frame-Options cannot be recognised: ${value}` };
}

const REFERRER_PRIVATE = new Set([
  "no-referrer",
  "same-origin",
  "strict-origin",
  "strict-origin-when-cross-origin",
]);
const REFERRER_UNSAFE = new Set(["origin", "origin-when-cross-origin", "unsafe-url"]);

function referrerPolicy(value: string | undefined): Modifier {
  if (!value) return { points: 0, max: 5, detail: "no Referrer-Policy header" };
  const last =
    value
      .split(",")
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean)
      .at(-1) ?? "";
  if (REFERRER_PRIVATE.has(last)) return { points: 5, max: 5, detail: `Referrer-Policy: ${value}` };
  if (last === "no-referrer-when-downgrade")
    return { points: 0, max: 5, detail: `Referrer-Policy: ${value}` };
  if (REFERRER_UNSAFE.has(last))
    return { points: -5, max: 5, detail: `Referrer-Policy leaks URLs: ${value}` };
  return { points: -5, max: 5, detail: `Referrer-Policy cannot be recognised: ${value}` };
}

function permissionsPolicy(value: string | undefined): Modifier {
  return value
    ? { points: 0, max: 0, detail: `Permissions-Policy: ${value}` }
    : { points: -5, max: 0, detail: "no Permissions-Policy header" };
}

/** Observatory's redirection test, on the plain-HTTP home page. */
function redirection(o: Observations): Modifier {
  const r = o.http_redirect;
  if (!r.reachable) return { points: 0, max: 0, detail: "the site does not answer on plain HTTP" };
  const [first, second] = r.chain;
  const final = r.final_url ?? first ?? "";
  if (!second) return { points: -20, max: 0, detail: "plain HTTP does not redirect to HTTPS" };
  if (!final.startsWith("https:"))
    return { points: -20, max: 0, detail: `redirects end on ${final}, not HTTPS` };
  if (!second.startsWith("https:"))
    return { points: -10, max: 0, detail: `first redirect goes to ${second}, not to HTTPS` };
  if (first && new URL(second).hostname !== new URL(first).hostname)
    return {
      points: -5,
      max: 0,
      detail: `first redirect goes to another host (${new URL(second).hostname})`,
    };
  return { points: 0, max: 0, detail: `redirects to ${final}` };
}

/**
 * tech_security_headers_score, as Mozilla's HTTP Observatory scores: 100, plus the modifiers of the CSP,
 * X-Content-Type-Options, X-Frame-Options, Referrer-Policy and redirection tests (bonuses only when the
 * penalties leave 90 or more), plus unirank's −5 for a missing Permissions-Policy; clamped to 0–100.
 */
export function scoreSecurityHeaders(o: Observations): ScoredPart {
  const h = o.home?.headers ?? {};
  const c = csp(h["content-security-policy"]);
  const mods: [string, string, Modifier, string][] = [
    [
      "headers.csp",
      "Content-Security-Policy",
      c,
      "Send a Content-Security-Policy without 'unsafe-inline' or 'unsafe-eval' in script-src.",
    ],
    [
      "headers.content-type-options",
      "X-Content-Type-Options",
      contentTypeOptions(h["x-content-type-options"]),
      "Send X-Content-Type-Options: nosniff.",
    ],
    [
      "headers.frame-options",
      "Framing (frame-ancestors / X-Frame-Options)",
      frameOptions(h["x-frame-options"], c.frameAncestors),
      "Add frame-ancestors to the CSP (or X-Frame-Options: DENY).",
    ],
    [
      "headers.referrer-policy",
      "Referrer-Policy",
      referrerPolicy(h["referrer-policy"]),
      "Send Referrer-Policy: strict-origin-when-cross-origin (or stricter).",
    ],
    [
      "headers.permissions-policy",
      "Permissions-Policy",
      permissionsPolicy(h["permissions-policy"]),
      "Send a Permissions-Policy that turns off features the site does not use.",
    ],
    [
      "headers.redirection",
      "HTTP to HTTPS redirection",
      redirection(o),
      "Redirect every plain-HTTP request to the same host over HTTPS.",
    ],
  ];
  const checks: CheckPoints[] = mods.map(([id, label, m, fix]) =>
    check(S, id, label, m.points, m.max, m.detail, fix),
  );
  if (!o.home) {
    return {
      scores: { [S]: 0 },
      checks: [
        check(
          S,
          "headers.home",
          "Home page answered",
          0,
          100,
          "the home page did not answer",
          "Serve the home page.",
        ),
      ],
      unmeasured: {},
    };
  }
  const penalties = checks.reduce((n, x) => n + Math.min(0, x.points), 0);
  const bonuses = checks.reduce((n, x) => n + Math.max(0, x.points), 0);
  const base = 100 + penalties;
  const total = base >= 90 ? base + bonuses : base;
  return { scores: { [S]: Math.max(0, Math.min(100, total)) }, checks, unmeasured: {} };
}
