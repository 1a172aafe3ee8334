import swaggerUiCss from "swagger-ui-dist/swagger-ui.css" with { type: "text" };
import swaggerUiBundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "text" };

/**
 * Swagger UI's script and style for `/docs` (text imports, inlined by `bun build`). A module of their own, imported
 * when `/docs/assets/` is first asked: about 9 MB resident that a server never asked for its docs page does not hold
 * (docs/performance.md).
 */

/** Source-map comments would make a browser with devtools ask for files we do not serve. */
const withoutSourceMap = (text: string) => text.replace(/\n?\/[/*]# sourceMappingURL=[^\n]*\s*$/, "\n");

export const SWAGGER_UI = {
  "swagger-ui-bundle.js": withoutSourceMap(swaggerUiBundle),
  "swagger-ui.css": withoutSourceMap(swaggerUiCss),
};
