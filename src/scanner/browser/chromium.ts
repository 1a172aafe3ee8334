import type { Browser } from "playwright-core";

/**
 * The features Playwright turns off for automation (playwright-core's `chromiumSwitches.ts`). Chromium keeps only
 * the last `--disable-features`, so ours must repeat them; a test checks this list still covers Playwright's.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
] as const;

/**
 * The omnibox's WebUI pages. Headless Chromium opens them for every window, that is every page a scan opens, each
 * in a renderer of its own that costs about as much CPU as the measured page (docs/performance.md).
 */
export const OMNIBOX_WEBUI_FEATURES = [
  "PreloadTopChromeWebUI",
  "WebUIOmniboxPopup",
  "WebUIOmniboxAimPopup",
] as const;

/**
 * Chromium's flags for scanning: headless, no GPU, no QUIC, none of the browser's own background traffic and no
 * omnibox WebUI.
 */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
  "--disable-domain-reliability",
  "--metrics-recording-only",
  "--no-pings",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_WEBUI_FEATURES].join(",")}`,
] as const;

/**
 * Starts Chromium at `path`. playwright-core gives every launch a fresh, temporary `--user-data-dir` and removes it
 * on close. Rejects with a one-line reason when the executable is missing or does not start.
 */
export async function launchChromium(
  path: string,
  timeoutMs = 30_000,
  extraArgs: string[] = [],
): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  try {
    return await chromium.launch({
      executablePath: path,
      headless: true,
      args: [...CHROMIUM_ARGS, ...extraArgs],
      timeout: timeoutMs,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  } catch (error) {
    throw new Error(`Chromium at ${path} could not start: ${firstLine(error)}`);
  }
}

/** The first meaningful line of an error, without Playwright's call log. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l !== "" && !/^=+/.test(l));
  return (line ?? "unknown error").replace(/^[\w.]+: /, "").slice(0, 300);
}
