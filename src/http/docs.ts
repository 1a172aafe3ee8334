import { Type } from "@sinclair/typebox";
import type { AccessFacts } from "./api-description.ts";
import { escapeAttr } from "./escape-attribute.ts";
import { buildOpenApi } from "./openapi.ts";
import { etagOf } from "./respond.ts";
import type { RouteSpec } from "./route.ts";
import { pageSecurityHeaders } from "./security-headers.ts";
import { JsonText } from "./spliced-json/json-text.ts";

/**
 * `/openapi.json` (the OpenAPI 3.1 document of every route, itself and these included) and `/docs`, a Swagger UI
 * page that works with no network: its script and style are embedded in unirank (`swagger-ui-assets.ts`, loaded
 * when first asked) and served from `/docs/assets/`, and its Content-Security-Policy forbids any other origin.
 */

type SwaggerUiFile = keyof typeof import("./swagger-ui-assets.ts").SWAGGER_UI;
let swaggerUi: Promise<typeof import("./swagger-ui-assets.ts")> | undefined;
/** A Swagger UI file's text, its module imported on the first ask. */
const swaggerUiText = async (file: SwaggerUiFile): Promise<string> => {
  swaggerUi ??= import("./swagger-ui-assets.ts");
  return (await swaggerUi).SWAGGER_UI[file];
};

const ASSETS = {
  "swagger-ui-bundle.js": {
    type: "text/javascript; charset=utf-8",
    text: () => swaggerUiText("swagger-ui-bundle.js"),
  },
  "swagger-ui.css": { type: "text/css; charset=utf-8", text: () => swaggerUiText("swagger-ui.css") },
  "docs.css": {
    type: "text/css; charset=utf-8",
    text: () => "body { margin: 0; }\n.swagger-ui .topbar { display: none; }\n",
  },
  "docs.js": {
    type: "text/javascript; charset=utf-8",
    text: () => `window.addEventListener("load", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-openapi"),
    dom_id: "#swagger-ui",
    validatorUrl: null,
    deepLinking: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    tryItOutEnabled: false
  });
});
`,
  },
} as const;

/** Only unirank's own script and style: the page's few rules of its own are an asset too, not inline. */
const DOCS_HEADERS = pageSecurityHeaders([
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
]);

function docsPage(prefix: string): string {
  const p = escapeAttr(prefix);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>unirank API documentation</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${p}/docs/assets/swagger-ui.css">
<link rel="stylesheet" href="${p}/docs/assets/docs.css">
</head>
<body>
<noscript>This page needs JavaScript. The raw OpenAPI 3.1 document is at <a href="${p}/openapi.json">${p}/openapi.json</a>.</noscript>
<div id="swagger-ui" data-openapi="${p}/openapi.json"></div>
<script src="${p}/docs/assets/swagger-ui-bundle.js"></script>
<script src="${p}/docs/assets/docs.js"></script>
</body>
</html>
`;
}

/** Appends `/openapi.json`, `/docs` and the docs assets to a route list; the document describes the whole list. */
export function withDocs(
  routes: RouteSpec[],
  options: { version?: string; access?: AccessFacts | null } = {},
): RouteSpec[] {
  const all: RouteSpec[] = [...routes];
  // The document as text and its tag, made once per mount prefix: 128 KB that every request serialised and
  // hashed again (docs/performance.md).
  const documents = new Map<string, { data: JsonText; etag: string }>();
  const base: Pick<RouteSpec, "version" | "tags" | "raw" | "uncached"> = {
    version: "none",
    tags: ["docs"],
    raw: true,
    uncached: true,
  };
  all.push({
    ...base,
    path: "/openapi.json",
    operationId: "openapi",
    summary: "This OpenAPI 3.1 document (v1, v2, health and docs)",
    response: Type.Object({ openapi: Type.Literal("3.1.0") }, { additionalProperties: true }),
    handle: ({ prefix }) => {
      let doc = documents.get(prefix);
      if (!doc) {
        const text = JSON.stringify(
          buildOpenApi(all, { version: options.version ?? "2.0", prefix, access: options.access ?? null }),
        );
        doc = { data: new JsonText(text), etag: etagOf(text) };
        documents.set(prefix, doc);
      }
      return doc;
    },
  });
  all.push({
    ...base,
    path: "/docs",
    operationId: "docs",
    summary: "Documentation page rendering /openapi.json (works offline)",
    contentType: "text/html; charset=utf-8",
    headers: DOCS_HEADERS,
    handle: ({ prefix }) => ({ data: docsPage(prefix) }),
  });
  for (const [file, asset] of Object.entries(ASSETS)) {
    all.push({
      ...base,
      path: `/docs/assets/${file}`,
      operationId: `docsAsset_${file.replace(/[^A-Za-z0-9]/g, "_")}`,
      summary: `Asset of the documentation page: ${file}`,
      contentType: asset.type,
      handle: async () => ({ data: await asset.text() }),
    });
  }
  return all;
}
