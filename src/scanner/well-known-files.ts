import type { FetchedResponse } from "./http-client.ts";

/**
 * Whether a response is plausibly the well-known file asked for: a site that answers every path with its home
 * page (200, HTML) has no robots.txt, sitemap or MTA-STS policy.
 */

const contentType = (r: FetchedResponse) =>
  (r.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";

/** Declared or sniffed HTML. */
export function looksLikeHtml(r: FetchedResponse): boolean {
  const type = contentType(r);
  if (type === "text/html" || type === "application/xhtml+xml") return true;
  const head = r.body
    .subarray(0, 1024)
    .toString("latin1")
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, "")
    .trimStart();
  return /^(<!doctype html|<html|<head|<body)/i.test(head);
}

const PLAIN = new Set(["", "text/plain", "application/octet-stream"]);

/**
 * A robots.txt: 200, not HTML, and either served as plain text (or untyped) or holding at least one
 * User-agent/Allow/Disallow/Sitemap line. An empty plain-text file is a robots.txt (it allows everything).
 */
export function isRobotsTxt(r: FetchedResponse): boolean {
  if (r.status !== 200 || looksLikeHtml(r)) return false;
  if (PLAIN.has(contentType(r))) return true;
  return /^\s*(user-agent|allow|disallow|sitemap)\s*:/im.test(r.body.toString("utf8"));
}

export type SitemapKind = "urlset" | "sitemapindex" | "text" | "other";

/** What a sitemap response is: an XML urlset or index, a text sitemap (one URL a line), or anything else. */
export function sitemapKind(r: FetchedResponse): SitemapKind | null {
  if (r.status !== 200 || looksLikeHtml(r)) return null;
  const text = r.body.toString("utf8");
  if (/<sitemapindex[\s>]/i.test(text)) return "sitemapindex";
  if (/<urlset[\s>]/i.test(text)) return "urlset";
  const type = contentType(r);
  if (type === "text/plain") {
    const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
    return lines.length > 0 && lines.every((l) => /^https?:\/\/\S+$/i.test(l.trim())) ? "text" : null;
  }
  const xml = /xml/.test(type) || /^\s*<\?xml/i.test(text);
  return xml ? "other" : null;
}

/** The `<loc>` values of a sitemap (or the URLs of a text sitemap). */
export function sitemapLocations(r: FetchedResponse, kind: SitemapKind): string[] {
  const text = r.body.toString("utf8");
  if (kind === "text")
    return text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
  return [...text.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/gi)].map((m) => m[1] as string);
}

/**
 * The `mode` of an MTA-STS policy (RFC 8461 §3.2), or null unless the response is one: served as text/plain (or
 * untyped), with `version: STSv1`.
 */
export function mtaStsMode(text: string, type: string | undefined = "text/plain"): string | null {
  const base = (type ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (base !== "" && base !== "text/plain") return null;
  if (!/^\s*version\s*:\s*STSv1\s*$/m.test(text)) return null;
  const m = /^\s*mode\s*:\s*(enforce|testing|none)\s*$/im.exec(text);
  return m?.[1] ? m[1].toLowerCase() : null;
}
