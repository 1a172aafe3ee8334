import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { checkTable, earned } from "./rubric/check-table.ts";
import { scoredFrom } from "./rubric/points.ts";

const S = "tech_tls_version_score" as const;

export const TLS_VERSION_CHECKS = checkTable(S, "rfc8996", {
  v13: {
    id: "tls.v13-offered",
    label: "TLS 1.3 offered",
    max: 50,
    earns: "a handshake pinned to TLS 1.3 succeeds",
    remediation: "Enable TLS 1.3 on the web server or CDN.",
  },
  v12: {
    id: "tls.v12-offered",
    label: "TLS 1.2 offered",
    max: 10,
    earns: "a handshake pinned to TLS 1.2 succeeds",
    remediation: "Keep TLS 1.2 enabled for older clients.",
  },
  v11: {
    id: "tls.v11-refused",
    label: "TLS 1.1 refused",
    max: 20,
    earns: "TLS 1.1 is refused (and 1.2 or 1.3 works)",
    remediation: "Disable TLS 1.1.",
  },
  v10: {
    id: "tls.v10-refused",
    label: "TLS 1.0 refused",
    max: 20,
    earns: "TLS 1.0 is refused (and 1.2 or 1.3 works)",
    remediation: "Disable TLS 1.0.",
  },
});

/** tech_tls_version_score: TLS 1.3 offered, 1.2 offered, 1.1 and 1.0 refused (nothing without any TLS). */
export function scoreTlsVersions(o: Observations): ScoredPart {
  const C = TLS_VERSION_CHECKS;
  const v = o.tls_versions;
  const speaks = v.tls13 || v.tls12;
  const said = (ok: boolean) => (ok ? "accepted" : "refused");
  const legacy = (accepted: boolean, name: string) =>
    speaks ? `TLS ${name} ${said(accepted)}` : "no modern TLS version accepted";
  return scoredFrom(S, [
    earned(C.v13, v.tls13 ? 50 : 0, `TLS 1.3 ${said(v.tls13)}`),
    earned(C.v12, v.tls12 ? 10 : 0, `TLS 1.2 ${said(v.tls12)}`),
    earned(C.v11, speaks && !v.tls11 ? 20 : 0, legacy(v.tls11, "1.1")),
    earned(C.v10, speaks && !v.tls10 ? 20 : 0, legacy(v.tls10, "1.0")),
  ]);
}
