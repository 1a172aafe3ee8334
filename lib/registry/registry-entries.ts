import { isCountryCode } from "../write/country-codes.ts";
import type { UniversityRecord } from "../write/records.ts";

/** One entry of `world_universities_and_domains.json` (the fields unirank reads). */
export interface RegistryEntry {
  name?: unknown;
  domains?: unknown;
  alpha_two_code?: unknown;
}

export interface RegistrySelection {
  /** The universities chosen, one per domain, in list order. */
  records: UniversityRecord[];
  /** Entries of the selected countries. */
  listed: number;
  /** Entries left out because every domain they list was taken by an earlier entry. */
  duplicates: number;
  /** Entries left out for a missing name, domain or country code. */
  invalid: number;
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;

/** Lower-cased, trimmed, without a trailing dot; null when it is not a host name. */
export function registryDomain(text: unknown): string | null {
  if (typeof text !== "string") return null;
  const domain = text.trim().toLowerCase().replace(/\.$/, "");
  return DOMAIN.test(domain) ? domain : null;
}

/**
 * Chooses one university per domain from the registry list. The rule: entries are taken in list order; an entry
 * is stored under the first of its domains that no earlier entry took (its other domains are not stored); an
 * entry whose every domain is taken is a duplicate and left out. `countries` (alpha-2, any case) narrows the list.
 */
export function selectRegistryEntries(
  entries: readonly RegistryEntry[],
  countries?: readonly string[],
): RegistrySelection {
  const wanted = countries?.length ? new Set(countries.map((c) => c.toUpperCase())) : null;
  const taken = new Set<string>();
  const out: RegistrySelection = { records: [], listed: 0, duplicates: 0, invalid: 0 };
  for (const entry of entries) {
    const country = typeof entry.alpha_two_code === "string" ? entry.alpha_two_code.trim().toUpperCase() : "";
    if (wanted && !wanted.has(country)) continue;
    out.listed++;
    const name = typeof entry.name === "string" ? entry.name.trim().replace(/\s+/g, " ") : "";
    const domains = (Array.isArray(entry.domains) ? entry.domains : []).map(registryDomain);
    const valid = domains.filter((d): d is string => d !== null);
    if (!name || valid.length === 0 || !isCountryCode(country)) {
      out.invalid++;
      continue;
    }
    const domain = valid.find((d) => !taken.has(d));
    if (domain === undefined) {
      out.duplicates++;
      continue;
    }
    for (const d of valid) taken.add(d);
    out.records.push({ type: "university", domain, name, country });
  }
  return out;
}
