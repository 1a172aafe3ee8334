import { explorerAssets } from "../../explorer/bundle.ts" with { type: "macro" };
import { escapeAttr } from "./escape-attribute.ts";
import type { RouteSpec } from "./route.ts";
import { pageSecurityHeaders } from "./security-headers.ts";

/**
 * The explorer at `/`: a page for people over the public v2 API. Its script and style are bundled from
 * `explorer/` when unirank is built (a Bun macro), so they are served from memory and the binary carries them.
 */

const ASSETS = explorerAssets();

/** The page's policy: its own script, style and API, nothing inline, no other origin. */
const EXPLORER_HEADERS = pageSecurityHeaders([
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
]);

function page(prefix: string): string {
  const p = escapeAttr(prefix);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>unirank explorer</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${p}/explorer/app.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><div class="bar"><a class="brand" href="#/">unirank</a><nav id="nav" class="nav" aria-label="Explorer"></nav>
<span class="api-links"><a href="${p}/docs">API documentation</a></span></div></header>
<main id="main" tabindex="-1"><noscript>The explorer needs JavaScript. The API is documented at <a href="${p}/docs">${p}/docs</a>.</noscript></main>
<div id="status" class="visually-hidden" role="status" aria-live="polite"></div>
<div id="app" data-base="${p}" hidden></div>
<script src="${p}/explorer/app.js"></script>
</body>
</html>
`;
}

const prefixOf = (request: Request) => {
  const { pathname } = new URL(request.url);
  return pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
};

/** `/` and the explorer's two assets. */
export function explorerRoutes(): RouteSpec[] {
  const base: Pick<RouteSpec, "version" | "tags" | "raw" | "uncached"> = {
    version: "none",
    tags: ["explorer"],
    raw: true,
    uncached: true,
  };
  return [
    {
      ...base,
      path: "/",
      operationId: "explorer",
      summary: "The explorer: a web page over the v2 API (works offline)",
      contentType: "text/html; charset=utf-8",
      headers: EXPLORER_HEADERS,
      handle: ({ request }) => ({ data: page(prefixOf(request)) }),
    },
    {
      ...base,
      path: "/explorer/app.js",
      operationId: "explorerScript",
      summary: "Script of the explorer",
      contentType: "text/javascript; charset=utf-8",
      handle: () => ({ data: ASSETS.js }),
    },
    {
      ...base,
      path: "/explorer/app.css",
      operationId: "explorerStyle",
      summary: "Style of the explorer",
      contentType: "text/css; charset=utf-8",
      handle: () => ({ data: ASSETS.css }),
    },
  ];
}
