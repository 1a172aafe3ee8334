/** The host of a URL or bare domain, lower-case, without port and a leading `www.`; null when unparseable. */
export function siteHost(urlOrDomain: string): string | null {
  const text = urlOrDomain.trim();
  if (text === "") return null;
  try {
    const host = new URL(
      /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`,
    ).hostname.toLowerCase();
    return host.replace(/^www\./, "").replace(/\.$/, "") || null;
  } catch {
    return null;
  }
}

/** True when a homepage belongs to the university's domain: the same host or one of its subdomains. */
export function sameSite(homepage: string, domain: string): boolean {
  const a = siteHost(homepage);
  const b = siteHost(domain);
  if (a === null || b === null) return false;
  return a === b || a.endsWith(`.${b}`);
}

/** `value` on a log scale: 0 at 0, 1 at `full` and above. */
export function logShare(value: number, full: number): number {
  if (!(value > 0)) return 0;
  return Math.min(1, Math.log10(1 + value) / Math.log10(1 + full));
}
