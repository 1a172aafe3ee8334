import pkg from "../package.json" with { type: "json" };

/** unirank's version, from package.json. */
export const VERSION: string = pkg.version;
