import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { check, scoredFrom } from "./points.ts";

const S = "tech_http2_score" as const;

/** tech_http2_score: HTTP/2 chosen by ALPN, HTTP/3 advertised by Alt-Svc. */
export function scoreHttp2(o: Observations): ScoredPart {
  const h2 = o.tls.alpn === "h2";
  const altSvc = o.home?.headers["alt-svc"] ?? "";
  const h3 = /(^|[\s,])h3(-\d+)?=/.test(altSvc);
  return scoredFrom(S, [
    check(
      S,
      "http2.alpn-h2",
      "HTTP/2",
      h2 ? 80 : 0,
      80,
      o.tls.connected ? `ALPN chose ${o.tls.alpn ?? "nothing"}` : "no TLS handshake",
      "Enable HTTP/2 on the web server or CDN.",
    ),
    check(
      S,
      "http2.alt-svc-h3",
      "HTTP/3 advertised",
      h3 ? 20 : 0,
      20,
      altSvc ? `Alt-Svc: ${altSvc}` : "no Alt-Svc header",
      "Enable HTTP/3 and advertise it with Alt-Svc.",
    ),
  ]);
}
