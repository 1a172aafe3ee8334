declare module "*.ndjson" {
  const path: string;
  export default path;
}

/** Swagger UI files imported `with { type: "text" }` (embedded by `bun build`), served by /docs. */
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const text: string;
  export default text;
}
declare module "swagger-ui-dist/swagger-ui.css" {
  const text: string;
  export default text;
}

/** axe-core's minified build, imported `with { type: "text" }` and evaluated in each page the browser part measures. */
declare module "axe-core/axe.min.js" {
  const text: string;
  export default text;
}
