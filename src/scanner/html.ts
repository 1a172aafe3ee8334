import { Parser } from "htmlparser2";
import type { PageObservation } from "../../lib/scanner/index.ts";

const MAX_LINKS = 1000;

/** Reads what the rubrics need from one HTML page; garbage HTML yields whatever the tolerant parser finds. */
export function parsePage(
  url: string,
  status: number,
  headers: Record<string, string>,
  body: Buffer,
  truncated: boolean,
): PageObservation {
  const page: PageObservation = {
    url,
    status,
    bytes: body.length,
    truncated,
    lang: null,
    title: null,
    description: null,
    canonical: null,
    h1_count: 0,
    robots_meta: headers["x-robots-tag"] ?? null,
    hreflang: [],
    links: [],
  };
  let base = url;
  const links = new Set<string>();
  const absolute = (href: string): string | null => {
    try {
      const u = new URL(href.trim(), base);
      if (u.protocol !== "http:" && u.protocol !== "https:") return null;
      u.hash = "";
      return u.href;
    } catch {
      return null;
    }
  };
  let inTitle = false;
  let title = "";
  const parser = new Parser(
    {
      onopentag(name, a) {
        if (name === "html" && a.lang && !page.lang) page.lang = a.lang.trim();
        else if (name === "base" && a.href) base = absolute(a.href) ?? base;
        else if (name === "title" && page.title === null) inTitle = true;
        else if (name === "h1") page.h1_count++;
        else if (name === "meta") {
          const key = (a.name ?? "").toLowerCase();
          if (key === "description" && page.description === null) page.description = a.content ?? "";
          if (key === "robots" && a.content)
            page.robots_meta = page.robots_meta ? `${page.robots_meta}, ${a.content}` : a.content;
          // As the HTTP Observatory reads them: a CSP in http-equiv, the last referrer policy by name.
          if (a["http-equiv"] !== undefined && a.content !== undefined) {
            if (a.content && a["http-equiv"].trim().toLowerCase() === "content-security-policy")
              page.meta_csp = [...(page.meta_csp ?? []), a.content];
          } else if (key.trim() === "referrer" && a.content) page.meta_referrer = a.content;
        } else if (name === "link") {
          const rel = (a.rel ?? "").toLowerCase().split(/\s+/);
          const href = a.href ? absolute(a.href) : null;
          if (rel.includes("canonical") && href && !page.canonical) page.canonical = href;
          if (rel.includes("alternate") && a.hreflang && href)
            page.hreflang.push({ lang: a.hreflang.trim(), href });
        } else if (name === "a" && a.href && links.size < MAX_LINKS) {
          const href = absolute(a.href);
          if (href) links.add(href);
        }
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === "title" && inTitle) {
          inTitle = false;
          page.title = title.replace(/\s+/g, " ").trim();
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(body.toString("utf8"));
  parser.end();
  if (inTitle) page.title = title.replace(/\s+/g, " ").trim();
  page.links = [...links];
  return page;
}

/** True when a response carries HTML (by Content-Type, or by sniffing when it has none). */
export function isHtml(headers: Record<string, string>, body: Buffer): boolean {
  const type = headers["content-type"];
  if (type) return /\b(text\/html|application\/xhtml\+xml)\b/i.test(type);
  return /<html|<!doctype html/i.test(body.subarray(0, 1024).toString("latin1"));
}
