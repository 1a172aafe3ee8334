import type { Availability, ScanEvidence, ScanOutcome, ScanTarget } from "../../lib/scanner/index.ts";
import type { SourceFlags } from "../config.ts";
import type { ScannerSettings } from "./scan-context.ts";

/** How `unirank scan` and `serve` run one scan: in a scan process (`ScanProcesses`) or, in tests, in this one. */
export type ScanRunner = (
  target: ScanTarget,
  options: { startedAt: Date; availability?: Availability | null },
  signal?: AbortSignal,
) => Promise<ScanOutcome & { evidence?: ScanEvidence }>;

/** The measurements beyond the own site: the browser (with `--chromium`) and the open-index sources (`--sources`). */
export interface MeasurementFlags extends SourceFlags {
  chromium?: string;
  /** Universities measured in Chromium at once across every scan (default 1). */
  browserConcurrency?: number;
}

/**
 * Everything a scan process needs to scan, as data (it crosses to the process as JSON): the scanner's settings
 * without its host queue (each process keeps its own) and the measurement flags its parts are made from.
 */
export type ScanJobSettings = Omit<ScannerSettings, "hosts"> & MeasurementFlags;
