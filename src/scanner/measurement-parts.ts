import type { ScanPart } from "../../lib/scanner/index.ts";
import { chromiumPath, type SourceFlags, sourceSettings } from "../config.ts";
import { browserPart } from "./browser/browser-part.ts";
import { sourceParts } from "./sources/index.ts";

/** The measurements beyond the own site: the browser (with `--chromium`) and the open-index sources (`--sources`). */
export interface MeasurementFlags extends SourceFlags {
  chromium?: string;
}

/** The browser part and the three source parts, as settings and environment ask; `close()` stops every Chromium. */
export function measurementParts(flags: MeasurementFlags): { parts: ScanPart[]; close(): Promise<void> } {
  const browser = browserPart({ chromiumPath: chromiumPath(flags.chromium) });
  const { enabled, options } = sourceSettings(flags);
  return { parts: [browser, ...sourceParts(enabled, options)], close: () => browser.close() };
}
