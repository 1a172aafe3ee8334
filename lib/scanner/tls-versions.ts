import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { check, scoredFrom } from "./points.ts";

const S = "tech_tls_version_score" as const;

/** tech_tls_version_score: TLS 1.3 offered, 1.2 offered, 1.1 and 1.0 refused (nothing without any TLS). */
export function scoreTlsVersions(o: Observations): ScoredPart {
  const v = o.tls_versions;
  const speaks = v.tls13 || v.tls12;
  const said = (ok: boolean) => (ok ? "accepted" : "refused");
  return scoredFrom(S, [
    check(
      S,
      "tls.v13-offered",
      "TLS 1.3 offered",
      v.tls13 ? 50 : 0,
      50,
      `TLS 1.3 ${said(v.tls13)}`,
      "Enable TLS 1.3 on the web server or CDN.",
    ),
    check(
      S,
      "tls.v12-offered",
      "TLS 1.2 offered",
      v.tls12 ? 10 : 0,
      10,
      `TLS 1.2 ${said(v.tls12)}`,
      "Keep TLS 1.2 enabled for older clients.",
    ),
    check(
      S,
      "tls.v11-refused",
      "TLS 1.1 refused",
      speaks && !v.tls11 ? 20 : 0,
      20,
      speaks ? `TLS 1.1 ${said(v.tls11)}` : "no modern TLS version accepted",
      "Disable TLS 1.1.",
    ),
    check(
      S,
      "tls.v10-refused",
      "TLS 1.0 refused",
      speaks && !v.tls10 ? 20 : 0,
      20,
      speaks ? `TLS 1.0 ${said(v.tls10)}` : "no modern TLS version accepted",
      "Disable TLS 1.0.",
    ),
  ]);
}
