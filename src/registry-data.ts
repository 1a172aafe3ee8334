import { isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";
import registryPath from "../data/world_universities_and_domains.json" with { type: "file" };
import type { RegistryEntry } from "../lib/index.ts";

/**
 * The bundled registry of real universities (university-domains-list, MIT; notice in
 * data/world_universities_and_domains.LICENSE.txt), embedded in the compiled binary like the demo dataset.
 */
const registryFile = (() => {
  const path = registryPath as unknown as string;
  return isAbsolute(path) ? path : fileURLToPath(new URL(path, import.meta.url));
})();

/** Reads the bundled list, or `file` when given (the same JSON shape). */
export async function readRegistry(file?: string): Promise<RegistryEntry[]> {
  const list: unknown = await Bun.file(file ?? registryFile).json();
  if (!Array.isArray(list)) throw new Error("the registry must be a JSON array of universities");
  return list as RegistryEntry[];
}
