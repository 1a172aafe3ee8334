import robotsParser from "robots-parser";
import {
  type Availability,
  type DnsObservation,
  type HomeObservation,
  type HttpRedirect,
  isNotableLink,
  type Observations,
  type PageObservation,
  type RobotsObservation,
  type SitemapObservation,
} from "../../lib/scanner/index.ts";
import { FetchError } from "./connection-pool.ts";
import { queryDns } from "./dns-client.ts";
import { isHtml, parsePage } from "./html.ts";
import { type FetchedResponse, fetchFollow } from "./http-client.ts";
import type { ScanContext } from "./scan-context.ts";
import { probeCertificate, probeVersions } from "./tls-probe.ts";

const ROBOTS_AGENT = "unirank";
/** Links to files the crawl does not open as pages. */
const NOT_A_PAGE =
  /\.(pdf|docx?|pptx?|xlsx?|odt|ods|odp|epub|csv|ps|zip|gz|tgz|rar|7z|jpe?g|png|gif|svg|webp|ico|mp[34]|webm|avi|mov|css|js|json|xml|txt)$/i;

/** A scan that cannot complete: the message is the failure reason stored on the scan. */
export class ScanFailure extends Error {}

async function dnsObservations(domain: string, ctx: ScanContext): Promise<DnsObservation> {
  const timeout = Math.min(ctx.requestTimeoutMs, 5000);
  const ask = (name: string, type: "A" | "TXT" | "MX") =>
    queryDns(ctx.resolver, name, type, timeout).catch(() => null);
  const [a, txt, dmarc, mx, sts] = await Promise.all([
    ask(domain, "A"),
    ask(domain, "TXT"),
    ask(`_dmarc.${domain}`, "TXT"),
    ask(domain, "MX"),
    ask(`_mta-sts.${domain}`, "TXT"),
  ]);
  const starting = (records: string[] | undefined, prefix: RegExp) =>
    (records ?? []).filter((r) => prefix.test(r));
  return {
    answered: a !== null,
    addresses: a?.records ?? [],
    spf: starting(txt?.records, /^v=spf1(\s|$)/i),
    dmarc: starting(dmarc?.records, /^v=DMARC1\s*(;|$)/i),
    mx: mx?.records ?? [],
    dnssec_ad: a?.ad ?? false,
    mta_sts: starting(sts?.records, /^v=STSv1\s*(;|$)/i),
    mta_sts_mode: null,
  };
}

/** The `mode` of an MTA-STS policy file, or null. */
export function mtaStsMode(text: string): string | null {
  const m = /^\s*mode\s*:\s*(enforce|testing|none)\s*$/im.exec(text);
  return m?.[1] ? m[1].toLowerCase() : null;
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

async function robotsAndSitemap(
  origin: string,
  ctx: ScanContext,
): Promise<{ robots: RobotsObservation; sitemap: SitemapObservation; allowed: (url: string) => boolean }> {
  const got = await tryFetch(`${origin}/robots.txt`, ctx);
  const ok = !(got instanceof FetchError) && got.response.status === 200;
  const text = ok ? got.response.body.toString("utf8") : "";
  const parsed = robotsParser(`${origin}/robots.txt`, text);
  const allowed = (url: string) => parsed.isAllowed(url, ROBOTS_AGENT) !== false;
  const home = `${origin}/`;
  const robots: RobotsObservation = {
    status: got instanceof FetchError ? null : got.response.status,
    found: ok,
    allows_home: allowed(home) && parsed.isAllowed(home, "*") !== false,
    sitemaps: ok ? parsed.getSitemaps() : [],
  };
  const url = robots.sitemaps[0] ?? `${origin}/sitemap.xml`;
  const sitemap: SitemapObservation = { url, found: false, valid: false, urls: 0 };
  const map = await tryFetch(url, ctx);
  if (!(map instanceof FetchError) && map.response.status === 200) {
    sitemap.found = true;
    const xml = map.response.body.toString("utf8");
    const locs = [...xml.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/gi)].map((m) => m[1] as string);
    const isIndex = /<sitemapindex[\s>]/i.test(xml);
    sitemap.valid = (isIndex || /<urlset[\s>]/i.test(xml)) && locs.length > 0;
    if (!isIndex) sitemap.urls = locs.length;
    else {
      for (const child of locs.slice(0, 3)) {
        const sub = await tryFetch(child, ctx);
        if (!(sub instanceof FetchError) && sub.response.status === 200)
          sitemap.urls += (sub.response.body.toString("utf8").match(/<loc>/gi) ?? []).length;
      }
    }
  }
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
  const http_redirect: HttpRedirect =
    plain instanceof FetchError
      ? { reachable: false, chain: [`http://${domain}/`], final_url: null, error: plain.message }
      : { reachable: true, chain: plain.chain, final_url: plain.chain.at(-1) ?? null, error: null };
  // The home page: over HTTPS, else wherever plain HTTP leads.
  const landed = !(secure instanceof FetchError) ? secure : !(plain instanceof FetchError) ? plain : null;
  if (!landed) throw new ScanFailure(`home page: ${(secure as FetchError).message}`);
  const finalUrl = landed.chain.at(-1) as string;
  const r = landed.response;
  const homeObservation: HomeObservation = { url: finalUrl, status: r.status, headers: r.headers };
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
      dns.mta_sts_mode = mtaStsMode(policy.response.body.toString("utf8"));
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
