import type { ScanPart } from "../../lib/scanner/index.ts";
import { chromiumPath, sourceSettings } from "../config.ts";
import { browserPart } from "./browser/browser-part.ts";
import type { SlotHolder } from "./browser/slots.ts";
import { guardedLookup } from "./scan-context.ts";
import type { MeasurementFlags } from "./scan-runner.ts";
import { sourceParts } from "./sources/index.ts";

/**
 * The browser part and the three source parts, as settings and environment ask; `close()` stops every Chromium.
 * `slots` are the browser's places when scan processes share them.
 */
export function measurementParts(
  flags: MeasurementFlags,
  slots?: SlotHolder,
): { parts: ScanPart[]; close(): Promise<void> } {
  // In a scan the part takes the scan's own answers; on its own, the system's resolver and no private targets.
  const browser = browserPart({
    chromiumPath: chromiumPath(flags.chromium),
    slots,
    concurrency: flags.browserConcurrency,
    lookup: guardedLookup({}),
  });
  const { enabled, options } = sourceSettings(flags);
  return { parts: [browser, ...sourceParts(enabled, options)], close: () => browser.close() };
}
