declare module "*.ndjson" {
  const path: string;
  export default path;
}
