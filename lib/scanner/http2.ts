import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { checkTable, earned } from "./rubric/check-table.ts";
import { scoredFrom } from "./rubric/points.ts";

const S = "tech_http2_score" as const;

export const HTTP2_CHECKS = checkTable(S, "rfc9113", {
  alpnH2: {
    id: "http2.alpn-h2",
    label: "HTTP/2",
    max: 80,
    earns: "ALPN chooses h2 when h2 and http/1.1 are offered",
    remediation: "Enable HTTP/2 on the web server or CDN.",
  },
  altSvcH3: {
    id: "http2.alt-svc-h3",
    label: "HTTP/3 advertised",
    max: 20,
    earns: "the home page's Alt-Svc advertises h3",
    remediation: "Enable HTTP/3 and advertise it with Alt-Svc.",
  },
});

/** tech_http2_score: HTTP/2 chosen by ALPN, HTTP/3 advertised by Alt-Svc. */
export function scoreHttp2(o: Observations): ScoredPart {
  const h2 = o.tls.alpn === "h2";
  const altSvc = o.home?.headers["alt-svc"] ?? "";
  const h3 = /(^|[\s,])h3(-\d+)?=/.test(altSvc);
  return scoredFrom(S, [
    earned(
      HTTP2_CHECKS.alpnH2,
      h2 ? 80 : 0,
      o.tls.connected ? `ALPN chose ${o.tls.alpn ?? "nothing"}` : "no TLS handshake",
    ),
    earned(HTTP2_CHECKS.altSvcH3, h3 ? 20 : 0, altSvc ? `Alt-Svc: ${altSvc}` : "no Alt-Svc header"),
  ]);
}
