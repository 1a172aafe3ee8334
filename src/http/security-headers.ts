/**
 * Security headers. Every answer says `nosniff` (set where responses are made, `respond.ts`); the HTML pages
 * (explorer, docs) also send their Content-Security-Policy as a header (with `frame-ancestors`, which a `<meta>`
 * policy cannot carry) and the headers of the MDN HTTP Observatory's top grade (docs/operations.md).
 */

/** Powerful features no unirank page uses, turned off for it and anything it could embed. */
const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "camera=()",
  "geolocation=()",
  "gyroscope=()",
  "magnetometer=()",
  "microphone=()",
  "payment=()",
  "usb=()",
].join(", ");

/** The headers of an HTML page whose policy is `csp` (`frame-ancestors 'none'` is added). */
export function pageSecurityHeaders(csp: readonly string[]): Record<string, string> {
  return {
    "Content-Security-Policy": [...csp, "frame-ancestors 'none'"].join("; "),
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Permissions-Policy": PERMISSIONS_POLICY,
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    // Browsers take it over HTTPS only: behind a TLS terminator the host stays on HTTPS for a year.
    "Strict-Transport-Security": "max-age=31536000",
  };
}
