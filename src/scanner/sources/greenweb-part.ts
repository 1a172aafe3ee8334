import {
  GreenCheck,
  type PartContext,
  type ScanTarget,
  type ScoredPart,
  scoreGreenCheck,
  siteHost,
  unmeasuredPart,
} from "../../../lib/scanner/index.ts";
import { fetchJson, requestOptions, type SourceOptions, trimBase } from "./fetch-json.ts";

export const GREENWEB_BASE_URL = "https://api.thegreenwebfoundation.org";
const SCORES = ["green_hosting_score"] as const;

/** The Green Web Foundation's greencheck of the university's web host (`www.` kept off, as the site is named). */
export function greenWebPart(options: SourceOptions = {}) {
  const base = trimBase(options.baseUrl ?? GREENWEB_BASE_URL);
  return async (
    target: ScanTarget,
    context: PartContext,
  ): Promise<ScoredPart & { observations?: GreenCheck }> => {
    const host = siteHost(target.domain);
    if (host === null) return unmeasuredPart(SCORES, `"${target.domain}" is not a host name`);
    const req = requestOptions(options, context.userAgent, context.signal);
    const answer = await fetchJson<GreenCheck>(
      "The Green Web Foundation",
      `${base}/api/v3/greencheck/${encodeURIComponent(host)}`,
      GreenCheck,
      req,
    );
    if (!answer.ok) return unmeasuredPart(SCORES, answer.reason);
    return { ...scoreGreenCheck(answer.value), observations: answer.value };
  };
}
