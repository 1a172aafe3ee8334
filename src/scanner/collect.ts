import {
  type Availability,
  type DnsObservation,
  evaluateSpfPolicy,
  type HomeObservation,
  type HttpRedirect,
  isNotableLink,
  type Observations,
  type PageObservation,
  type RobotsObservation,
  runSpfAsync,
  type SitemapObservation,
  type SpfAnswer,
  type SpfDnsAnswer,
  type SpfQuestion,
} from "../../lib/scanner/index.ts";
import { FetchError } from "./connection-pool.ts";
import { type DnsAnswer, queryDns } from "./dns-client.ts";
import { isHtml, parsePage } from "./html.ts";
import { type FetchedResponse, fetchFollow } from "./http-client.ts";
import { parseRobotsTxt } from "./robots.ts";
import type { ScanContext } from "./scan-context.ts";
import { probeCertificate, probeVersions } from "./tls-probe.ts";
import { isRobotsTxt, mtaStsMode, sitemapKind, sitemapLocations } from "./well-known-files.ts";

export { mtaStsMode };

const ROBOTS_AGENT = "unirank";
/** Links to files the crawl does not open as pages. */
const NOT_A_PAGE =
  /\.(pdf|docx?|pptx?|xlsx?|odt|ods|odp|epub|csv|ps|zip|gz|tgz|rar|7z|jpe?g|png|gif|svg|webp|ico|mp[34]|webm|avi|mov|css|js|json|xml|txt)$/i;

/** A scan that cannot complete: the message is the failure reason stored on the scan. */
export class ScanFailure extends Error {}

/** RFC 7208 §4.6.4: an evaluation past 20 s is a temperror. */
const SPF_DEADLINE_MS = 20_000;

/**
 * Evaluates the domain's SPF policy over the network, recording every answer it needed (so the rubric can
 * evaluate it again from the evidence). TXT answers keep only the records starting with `v=spf1`.
 */
async function spfAnswers(
  domain: string,
  /** The domain's own answers the scan already has (TXT, A, MX): not asked again. */
  known: Partial<Record<SpfQuestion["type"], DnsAnswer | Error>>,
  ask: (name: string, type: SpfQuestion["type"]) => Promise<DnsAnswer | Error>,
  signal: AbortSignal,
): Promise<SpfDnsAnswer[]> {
  const recorded = new Map<string, SpfDnsAnswer>();
  const deadline = Date.now() + SPF_DEADLINE_MS;
  const spfOnly = (records: string[]) => records.filter((r) => /^v=spf1/i.test(r));
  await runSpfAsync(evaluateSpfPolicy(domain), async (q): Promise<SpfAnswer> => {
    const key = `${q.type} ${q.name.toLowerCase()}`;
    let entry = recorded.get(key);
    if (!entry) {
      const own = q.name.toLowerCase() === domain ? known[q.type] : undefined;
      const got =
        own !== undefined
          ? own
          : signal.aborted
            ? new Error("scan stopped")
            : Date.now() > deadline
              ? new Error(`the SPF evaluation took longer than ${SPF_DEADLINE_MS / 1000} s`)
              : await ask(q.name, q.type);
      entry =
        got instanceof Error
          ? { name: q.name, type: q.type, rcode: null, records: [], error: got.message }
          : {
              name: q.name,
              type: q.type,
              rcode: got.rcode,
              records: q.type === "TXT" ? spfOnly(got.records) : got.records,
            };
      recorded.set(key, entry);
    }
    return entry.rcode === null
      ? { error: entry.error ?? "no answer" }
      : { rcode: entry.rcode, records: entry.records };
  });
  return [...recorded.values()];
}

async function dnsObservations(domain: string, ctx: ScanContext): Promise<DnsObservation> {
  const timeout = Math.min(ctx.requestTimeoutMs, 5000);
  const ask = (name: string, type: SpfQuestion["type"]) =>
    queryDns(ctx.resolver, name, type, timeout).catch((e: Error) => e);
  const [a, txt, dmarc, mx, sts] = await Promise.all([
    ask(domain, "A"),
    ask(domain, "TXT"),
    ask(`_dmarc.${domain}`, "TXT"),
    ask(domain, "MX"),
    ask(`_mta-sts.${domain}`, "TXT"),
  ]);
  const ok = (x: DnsAnswer | Error) => (x instanceof Error ? null : x);
  const starting = (answer: DnsAnswer | Error, prefix: RegExp) =>
    (ok(answer)?.records ?? []).filter((r) => prefix.test(r));
  const spf = starting(txt, /^v=spf1/i);
  return {
    answered: ok(a) !== null,
    addresses: ok(a)?.records ?? [],
    spf,
    spf_dns: spf.length > 0 ? await spfAnswers(domain, { TXT: txt, A: a, MX: mx }, ask, ctx.signal) : [],
    // Every record starting v=DMARC1 in any case: the rubric keeps those receivers accept, and says why not.
    dmarc: starting(dmarc, /^\s*v\s*=\s*dmarc1/i),
    mx: ok(mx)?.records ?? [],
    dnssec_ad: ok(a)?.ad ?? false,
    mta_sts: starting(sts, /^v=STSv1\s*(;|$)/i),
    mta_sts_mode: null,
  };
}

async function tryFetch(
  url: string,
  ctx: ScanContext,
  known?: (url: string) => boolean,
): Promise<{ chain: string[]; response: FetchedResponse } | FetchError> {
  try {
    return await fetchFollow(url, ctx, known);
  } catch (e) {
    if (e instanceof FetchError) return e;
    throw e;
  }
}

/** At most this many child sitemaps of an index are read. */
const CHILD_SITEMAPS = 3;
/** A sitemap lists at most 50,000 URLs (sitemaps.org); more in one file are not counted. */
const URLS_PER_SITEMAP = 50_000;

const normalUrl = (u: string) => {
  try {
    return new URL(u).href;
  } catch {
    return u;
  }
};

/**
 * The sitemap at `url`: a urlset counts its URLs; an index counts those of its first 3 child sitemaps that are
 * urlsets (the index itself, a child listed twice and nested indexes are not read again or counted).
 */
async function readSitemap(url: string, ctx: ScanContext): Promise<SitemapObservation> {
  const sitemap: SitemapObservation = { url, found: false, valid: false, urls: 0 };
  const got = await tryFetch(url, ctx);
  if (got instanceof FetchError || got.response.status !== 200) return sitemap;
  const r = got.response;
  sitemap.content_type = r.headers["content-type"] ?? null;
  const kind = sitemapKind(r);
  if (kind === null) return sitemap;
  sitemap.found = true;
  const locs = sitemapLocations(r, kind);
  sitemap.valid = kind !== "other" && locs.length > 0;
  if (kind !== "sitemapindex") {
    sitemap.urls = kind === "other" ? 0 : Math.min(locs.length, URLS_PER_SITEMAP);
    return sitemap;
  }
  sitemap.index = true;
  sitemap.children = 0;
  const seen = new Set([normalUrl(url), ...got.chain.map(normalUrl)]);
  for (const loc of locs) {
    if (sitemap.children >= CHILD_SITEMAPS || ctx.signal.aborted) break;
    const child = normalUrl(loc);
    if (seen.has(child)) continue;
    seen.add(child);
    const sub = await tryFetch(child, ctx);
    if (sub instanceof FetchError) continue;
    sitemap.children++;
    const subKind = sitemapKind(sub.response);
    if (subKind === "urlset" || subKind === "text")
      sitemap.urls += Math.min(sitemapLocations(sub.response, subKind).length, URLS_PER_SITEMAP);
  }
  return sitemap;
}

async function robotsAndSitemap(
  origin: string,
  ctx: ScanContext,
): Promise<{ robots: RobotsObservation; sitemap: SitemapObservation; allowed: (url: string) => boolean }> {
  const robotsUrl = `${origin}/robots.txt`;
  const got = await tryFetch(robotsUrl, ctx);
  const response = got instanceof FetchError ? null : got.response;
  // Only a plausible robots.txt counts: a page answering every path is none (and then everything is allowed).
  const found = response !== null && isRobotsTxt(response);
  const rules = parseRobotsTxt(robotsUrl, found ? response.body : new Uint8Array());
  const allowed = (url: string) => rules.isAllowed(url, ROBOTS_AGENT);
  const home = `${origin}/`;
  const robots: RobotsObservation = {
    status: response?.status ?? null,
    found,
    allows_home: allowed(home) && rules.isAllowed(home, "*"),
    sitemaps: found ? rules.sitemaps : [],
  };
  if (response?.status === 200) robots.content_type = response.headers["content-type"] ?? null;
  const sitemap = await readSitemap(robots.sitemaps[0] ?? `${origin}/sitemap.xml`, ctx);
  return { robots, sitemap, allowed };
}

/** Breadth-first crawl of the home page's host, robots.txt obeyed, at most `ctx.maxPages` pages in all. */
async function crawl(
  home: PageObservation,
  allowed: (url: string) => boolean,
  ctx: ScanContext,
): Promise<PageObservation[]> {
  const pages = [home];
  const host = new URL(home.url).host;
  const seen = new Set([home.url]);
  const queue = [...home.links];
  while (queue.length > 0 && pages.length < ctx.maxPages && !ctx.signal.aborted) {
    const next = queue.shift() as string;
    if (seen.has(next)) continue;
    seen.add(next);
    const u = new URL(next);
    if (u.host !== host || NOT_A_PAGE.test(u.pathname) || !allowed(next)) continue;
    const got = await tryFetch(next, ctx);
    if (got instanceof FetchError) continue;
    const { response } = got;
    const final = got.chain.at(-1) as string;
    if (response.status !== 200 || new URL(final).host !== host || !isHtml(response.headers, response.body))
      continue;
    seen.add(final);
    const page = parsePage(final, response.status, response.headers, response.body, response.truncated);
    pages.push(page);
    queue.push(...page.links.filter((l) => !seen.has(l)));
  }
  return pages;
}

/** Everything the rubrics read about `domain`, gathered from its own site and DNS. */
export async function collectObservations(
  domain: string,
  ctx: ScanContext,
  observedAt: Date,
  availability: Availability | null = null,
): Promise<Observations> {
  const dns = await dnsObservations(domain, ctx);
  if (!dns.answered)
    throw new ScanFailure(
      `DNS: the resolver ${ctx.resolver.host}:${ctx.resolver.port} did not answer for ${domain}`,
    );
  if (dns.addresses.length === 0) throw new ScanFailure(`DNS: ${domain} has no A record`);
  await ctx.address(domain).catch((e: Error) => {
    throw new ScanFailure(e.message);
  });

  const secure = await tryFetch(`https://${domain}/`, ctx);
  // Plain HTTP: its redirect chain is what counts; a URL the HTTPS fetch already read is not read again.
  const fetched = new Set(secure instanceof FetchError ? [] : secure.chain);
  const plain = await tryFetch(`http://${domain}/`, ctx, (url) => fetched.has(url));
  // A chain that joined the HTTPS one ends where that one ends, with its certificate.
  const secured = secure instanceof FetchError ? null : secure;
  const joined = !(plain instanceof FetchError) && secured !== null && fetched.has(plain.chain.at(-1) ?? "");
  const http_redirect: HttpRedirect =
    plain instanceof FetchError
      ? { reachable: false, chain: [`http://${domain}/`], final_url: null, error: plain.message }
      : {
          reachable: true,
          chain: plain.chain,
          final_url: (joined ? secured?.chain.at(-1) : plain.chain.at(-1)) ?? null,
          error: null,
        };
  if (!(plain instanceof FetchError)) {
    const verified = joined ? secured?.response.verified : plain.response.verified;
    if (typeof verified === "boolean") http_redirect.verified = verified;
  }
  // The home page: over HTTPS, else wherever plain HTTP leads.
  const landed = !(secure instanceof FetchError) ? secure : !(plain instanceof FetchError) ? plain : null;
  if (!landed) throw new ScanFailure(`home page: ${(secure as FetchError).message}`);
  const finalUrl = landed.chain.at(-1) as string;
  const r = landed.response;
  const homeObservation: HomeObservation = { url: finalUrl, status: r.status, headers: r.headers };
  if (r.verified !== null) homeObservation.verified = r.verified;
  const homePage = parsePage(finalUrl, r.status, r.headers, r.body, r.truncated);

  const tls = await probeCertificate(domain, ctx);
  const tls_versions = tls.connected
    ? await probeVersions(domain, ctx, tls.protocol === "TLSv1.3")
    : { tls13: false, tls12: false, tls11: false, tls10: false };
  const origin = new URL(finalUrl).origin;
  const { robots, sitemap, allowed } = await robotsAndSitemap(origin, ctx);
  const crawled = await crawl(homePage, allowed, ctx);
  // The crawl needed every link; the evidence keeps those a rubric can count.
  const pages = crawled.map((p) => ({ ...p, links: p.links.filter((l) => isNotableLink(l, domain)) }));
  if (dns.mta_sts.length > 0) {
    const policy = await tryFetch(`https://mta-sts.${domain}/.well-known/mta-sts.txt`, ctx);
    if (!(policy instanceof FetchError) && policy.response.status === 200)
      dns.mta_sts_mode = mtaStsMode(
        policy.response.body.toString("utf8"),
        policy.response.headers["content-type"],
      );
  }
  if (ctx.signal.aborted) throw new ScanFailure(String(ctx.signal.reason ?? "scan stopped"));
  return {
    domain,
    observed_at: observedAt.toISOString(),
    tls,
    tls_versions,
    http_redirect,
    home: homeObservation,
    pages,
    robots,
    sitemap,
    dns,
    availability,
  };
}
