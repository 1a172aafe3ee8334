import {
  formatIp,
  type IpAddress,
  inNetwork,
  ipLabels,
  parseIPv4,
  parseIPv6,
  reverseName,
} from "./ip-address.ts";

/**
 * SPF as RFC 7208 defines it: record selection (§4.5), syntax (§4.6, §12), check_host() evaluation (§4.6–§6) with
 * the limits of §4.6.4 (10 DNS-querying terms, 2 void lookups, 10 MX or PTR names), macros (§7) and exp= (§6.2).
 *
 * The evaluation asks its DNS questions by yielding them (a generator), so the same code runs over the network
 * while scanning and over the recorded answers when stored evidence is scored again. Without a client IP it
 * evaluates the published policy itself: the result a client gets when only terms matching every client match.
 */

export type SpfResult = "none" | "neutral" | "pass" | "fail" | "softfail" | "temperror" | "permerror";
export type SpfQueryType = "TXT" | "A" | "AAAA" | "MX" | "PTR";
export interface SpfQuestion {
  name: string;
  type: SpfQueryType;
}
/**
 * An answer: the RCODE and the records (TXT strings joined, addresses, MX exchanges, PTR names); `error` when the
 * query failed (time-out, server failure); `unknown` when stored evidence does not hold it.
 */
export type SpfAnswer = { rcode: number; records: string[] } | { error: string } | { unknown: true };

/** The SMTP client an evaluation is for. */
export interface SpfClient {
  ip: IpAddress;
  /** MAIL FROM; empty for a bounce (then `postmaster@<helo>` is checked). */
  mailFrom: string;
  helo: string;
  /** The receiving host, for %{r} (default `unknown`). */
  receiver?: string;
  /** Seconds since the epoch, for %{t}. */
  now?: number;
}

export interface SpfEvaluation {
  result: SpfResult;
  /** Why, in one sentence. */
  reason: string;
  /** The exp= explanation of a fail, when the record gives a usable one. */
  explanation?: string;
  /** DNS-querying terms evaluated (include, a, mx, ptr, exists, redirect); more than 10 is a permerror. */
  lookups: number;
  /** Lookups of those terms that found nothing; more than 2 is a permerror. */
  voids: number;
}

export const MAX_DNS_TERMS = 10;
export const MAX_VOID_LOOKUPS = 2;
const MAX_NAMES = 10;
const MAX_DEPTH = 20;

type Asking<T> = Generator<SpfQuestion, T, SpfAnswer>;

class SpfError extends Error {
  constructor(
    readonly result: "permerror" | "temperror",
    message: string,
  ) {
    super(message);
  }
}
const perm = (message: string) => new SpfError("permerror", message);

type Qualifier = "+" | "-" | "~" | "?";
interface Directive {
  qualifier: Qualifier;
  mechanism: "all" | "include" | "a" | "mx" | "ptr" | "ip4" | "ip6" | "exists";
  spec: string | null;
  network: Uint8Array | null;
  cidr4: number | null;
  cidr6: number | null;
  text: string;
}
interface ParsedRecord {
  directives: Directive[];
  redirect: string | null;
  exp: string | null;
}

const QUALIFIED: Record<Qualifier, SpfResult> = { "+": "pass", "-": "fail", "~": "softfail", "?": "neutral" };
const DOMAIN_LETTERS = "slodiphv";
const EXP_LETTERS = "slodiphvcrt";

/** The SPF records among TXT strings: exactly `v=spf1` (any case), then a space or the end (§4.5). */
export function spfRecords(txt: readonly string[]): string[] {
  return txt.filter((r) => /^v=spf1( |$)/i.test(r));
}

interface MacroToken {
  literal?: string;
  letter?: string;
  digits?: number;
  reverse?: boolean;
  delimiters?: string;
}

/** Tokenises a macro-string (§7.1); throws a permerror on bad syntax or a letter not allowed here. */
function macroTokens(text: string, letters: string, spaces = false): MacroToken[] {
  const out: MacroToken[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c !== "%") {
      const code = c.charCodeAt(0);
      if ((code < 0x21 || code > 0x7e) && !(spaces && c === " "))
        throw perm(`invalid character in "${text}"`);
      out.push({ literal: c });
      continue;
    }
    const next = text[i + 1];
    if (next === "%" || next === "_" || next === "-") {
      out.push({ literal: next === "%" ? "%" : next === "_" ? " " : "%20" });
      i++;
      continue;
    }
    const m = next === "{" ? /^%\{([a-z])(\d*)(r?)([.\-+,/_=]*)\}/i.exec(text.slice(i)) : null;
    if (!m) throw perm(`invalid macro in "${text}"`);
    const [all, letter = "", digits = "", reverse, delimiters = ""] = m;
    if (!letters.includes(letter.toLowerCase()))
      throw perm(`macro letter ${letter} is not allowed in "${text}"`);
    if (digits !== "" && Number(digits) === 0) throw perm(`macro %{${letter}0} in "${text}"`);
    out.push({
      letter,
      digits: digits === "" ? undefined : Number(digits),
      reverse: reverse !== "",
      delimiters,
    });
    i += all.length - 1;
  }
  return out;
}

const TOPLABEL = /^(?=[a-z0-9-]*[a-z])[a-z0-9]+$|^[a-z0-9]+-[a-z0-9-]*[a-z0-9]$/i;

/** Checks a domain-spec (§7.1): a macro-string ending in a macro or in `.toplabel` (a trailing dot allowed). */
function checkDomainSpec(spec: string, letters = DOMAIN_LETTERS): void {
  if (spec === "") throw perm("empty domain-spec");
  const tokens = macroTokens(spec, letters);
  const last = tokens.at(-1);
  if (last?.letter !== undefined) return;
  const m = /\.([^.%]+)\.?$/.exec(spec);
  if (!m || !TOPLABEL.test(m[1] as string)) throw perm(`"${spec}" does not end in a valid top-level label`);
}

const CIDR4 = /^(0|[1-9]\d?)$/;
const CIDR6 = /^(0|[1-9]\d{0,2})$/;
function cidr(text: string | undefined, max: number, pattern: RegExp): number | null {
  if (text === undefined) return null;
  if (!pattern.test(text) || Number(text) > max) throw perm(`invalid CIDR length /${text}`);
  return Number(text);
}

/** Parses a record (§4.6, §12); any syntax error anywhere makes it a permerror. */
function parseRecord(record: string): ParsedRecord {
  if (/[^\x20-\x7e]/.test(record)) throw perm("the record is not printable 7-bit ASCII");
  const out: ParsedRecord = { directives: [], redirect: null, exp: null };
  for (const term of record.slice(6).split(" ")) {
    if (term === "") continue;
    const mod = /^([a-z][a-z0-9\-_.]*)=(.*)$/i.exec(term);
    if (mod) {
      const name = (mod[1] as string).toLowerCase();
      const value = mod[2] as string;
      if (name === "redirect" || name === "exp") {
        if (out[name] !== null) throw perm(`${name}= given twice`);
        checkDomainSpec(value);
        out[name] = value;
      } else macroTokens(value, DOMAIN_LETTERS);
      continue;
    }
    const m = /^([+\-~?]?)([a-z0-9]+)(.*)$/i.exec(term);
    if (!m) throw perm(`"${term}" is neither a mechanism nor a modifier`);
    const qualifier = (m[1] || "+") as Qualifier;
    const mechanism = (m[2] as string).toLowerCase() as Directive["mechanism"];
    const rest = m[3] as string;
    const d: Directive = {
      qualifier,
      mechanism,
      spec: null,
      network: null,
      cidr4: null,
      cidr6: null,
      text: term,
    };
    switch (mechanism) {
      case "all":
        if (rest !== "") throw perm(`"${term}": all takes no argument`);
        break;
      case "include":
      case "exists":
        if (!rest.startsWith(":")) throw perm(`"${term}": ${mechanism} needs :domain`);
        d.spec = rest.slice(1);
        checkDomainSpec(d.spec);
        break;
      case "ptr":
        if (rest !== "") {
          if (!rest.startsWith(":")) throw perm(`"${term}": ptr takes only :domain`);
          d.spec = rest.slice(1);
          checkDomainSpec(d.spec);
        }
        break;
      case "a":
      case "mx": {
        const dual = /(?:\/(\d+))?(?:\/\/(\d+))?$/.exec(rest) as RegExpExecArray;
        const head = rest.slice(0, dual.index);
        if (head !== "") {
          if (!head.startsWith(":")) throw perm(`"${term}": invalid ${mechanism}`);
          d.spec = head.slice(1);
          checkDomainSpec(d.spec);
        }
        d.cidr4 = cidr(dual[1], 32, CIDR4);
        d.cidr6 = cidr(dual[2], 128, CIDR6);
        break;
      }
      case "ip4":
      case "ip6": {
        const net = /^:([^/]*)(?:\/(\d+))?$/.exec(rest);
        const address = net
          ? mechanism === "ip4"
            ? parseIPv4(net[1] as string)
            : parseIPv6(net[1] as string)
          : null;
        if (!net || !address) throw perm(`"${term}": invalid ${mechanism} network`);
        d.network = address;
        if (mechanism === "ip4") d.cidr4 = cidr(net[2], 32, CIDR4);
        else d.cidr6 = cidr(net[2], 128, CIDR6);
        break;
      }
      default:
        throw perm(`unknown mechanism in "${term}"`);
    }
    out.directives.push(d);
  }
  return out;
}

/** A name fit for a DNS query: no trailing dot, at most 253 characters (labels cut from the left, §7.3). */
function queryName(expanded: string): string {
  let name = expanded.endsWith(".") ? expanded.slice(0, -1) : expanded;
  while (name.length > 253 && name.includes(".")) name = name.slice(name.indexOf(".") + 1);
  return name;
}
/** A domain a query can be composed for: no empty label, no label over 63 characters. */
const composable = (name: string) =>
  name !== "" && name.split(".").every((l) => l.length > 0 && l.length <= 63);
/** A domain check_host() accepts (§4.3): composable and of at least two labels. */
const validDomain = (name: string) => composable(name) && name.includes(".");

interface Context {
  client: SpfClient | null;
  sender: string;
  local: string;
  senderDomain: string;
  lookups: number;
  voids: number;
}

const urlEscape = (s: string) =>
  [...new TextEncoder().encode(s)]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");

/** Expands a macro-string (§7.3); null when it needs the client and there is none (a policy evaluation). */
function* expand(ctx: Context, text: string, domain: string, explain = false): Asking<string | null> {
  const tokens = macroTokens(text, explain ? EXP_LETTERS : DOMAIN_LETTERS, explain);
  let out = "";
  for (const t of tokens) {
    if (t.literal !== undefined) {
      out += t.literal;
      continue;
    }
    const letter = (t.letter as string).toLowerCase();
    let value: string;
    if (letter === "d") value = domain;
    else if (!ctx.client) return null;
    else if (letter === "s") value = ctx.sender;
    else if (letter === "l") value = ctx.local;
    else if (letter === "o") value = ctx.senderDomain;
    else if (letter === "i") value = ipLabels(ctx.client.ip).join(".");
    else if (letter === "v") value = ctx.client.ip.family === 4 ? "in-addr" : "ip6";
    else if (letter === "h") value = ctx.client.helo;
    else if (letter === "c") value = formatIp(ctx.client.ip);
    else if (letter === "r") value = ctx.client.receiver ?? "unknown";
    else if (letter === "t") value = String(ctx.client.now ?? Math.floor(Date.now() / 1000));
    else value = (yield* validatedName(ctx, domain)) ?? "unknown";
    const split = new RegExp(`[${(t.delimiters || ".").replace(/[-\\\]^/]/g, "\\$&")}]`);
    let parts = value.split(split);
    if (t.reverse) parts.reverse();
    if (t.digits !== undefined) parts = parts.slice(-t.digits);
    const joined = parts.join(".");
    out += t.letter === letter ? joined : urlEscape(joined);
  }
  return out;
}

function* ask(name: string, type: SpfQueryType): Asking<SpfAnswer> {
  return yield { name, type };
}

const addressType = (client: SpfClient | null): SpfQueryType => (client?.ip.family === 6 ? "AAAA" : "A");
const records = (a: SpfAnswer) => ("records" in a ? a.records : []);

/**
 * The client's PTR names that resolve back to its address (of the first 10), for ptr and %{p}; `ptr` is the
 * PTR answer itself (a DNS error there means no names, §5.5).
 */
function* validatedNames(ctx: Context): Asking<{ names: string[]; ptr: SpfAnswer | null }> {
  if (!ctx.client) return { names: [], ptr: null };
  const ptr = yield* ask(reverseName(ctx.client.ip), "PTR");
  const out: string[] = [];
  for (const raw of records(ptr).slice(0, MAX_NAMES)) {
    const name = queryName(raw);
    if (!composable(name)) continue;
    const back = yield* ask(name, addressType(ctx.client));
    const ip = ctx.client.ip;
    if (
      records(back).some((a) => {
        const parsed = ip.family === 4 ? parseIPv4(a) : parseIPv6(a);
        return parsed !== null && inNetwork(ip, parsed, ip.bytes.length * 8);
      })
    )
      out.push(name);
  }
  return { names: out, ptr };
}

const under = (name: string, domain: string) => {
  const n = name.toLowerCase();
  const d = domain.toLowerCase();
  return n === d || n.endsWith(`.${d}`);
};

function* validatedName(ctx: Context, domain: string): Asking<string | null> {
  const { names } = yield* validatedNames(ctx);
  return names.find((n) => under(n, domain)) ?? names[0] ?? null;
}

function countLookup(ctx: Context, d: { text: string }): void {
  ctx.lookups++;
  if (ctx.lookups > MAX_DNS_TERMS)
    throw perm(`more than ${MAX_DNS_TERMS} DNS-querying terms (at "${d.text}")`);
}
function countVoid(ctx: Context, answer: SpfAnswer, name: string): void {
  if (!("rcode" in answer) || answer.records.length > 0) return;
  ctx.voids++;
  if (ctx.voids > MAX_VOID_LOOKUPS) throw perm(`more than ${MAX_VOID_LOOKUPS} void lookups (at ${name})`);
}
function failed(answer: SpfAnswer, what: string): void {
  if ("error" in answer) throw new SpfError("temperror", `DNS error for ${what}: ${answer.error}`);
}

/** The target of a term: its expanded domain-spec, or the current domain; null when it cannot be known. */
function* target(ctx: Context, d: Directive | string, domain: string): Asking<string | null> {
  const spec = typeof d === "string" ? d : d.spec;
  if (spec === null) return domain;
  const expanded = yield* expand(ctx, spec, domain);
  return expanded === null ? null : queryName(expanded);
}

function* addressesMatch(ctx: Context, name: string, d: Directive, countVoids: boolean): Asking<boolean> {
  const answer = yield* ask(name, addressType(ctx.client));
  failed(answer, name);
  if (countVoids) countVoid(ctx, answer, name);
  const found = records(answer);
  const ip = ctx.client?.ip;
  // Without a client, only a /0 network matches (it matches every client).
  if (!ip) return d.cidr4 === 0 && found.length > 0;
  const prefix = ip.family === 4 ? (d.cidr4 ?? 32) : (d.cidr6 ?? 128);
  return found.some((a) => {
    const net = ip.family === 4 ? parseIPv4(a) : parseIPv6(a);
    return net !== null && inNetwork(ip, net, prefix);
  });
}

interface HostOutcome {
  result: SpfResult;
  reason: string;
  /** The record whose exp= explains a fail (the top one, or a redirect's). */
  exp: { spec: string; domain: string } | null;
  /** Stored evidence lacks an answer the evaluation needed. */
  unknown?: boolean;
}

/** Fetches and selects the domain's SPF record: null for none, "unknown" when it is not recorded. */
function* fetchRecord(domain: string): Asking<string | null | "unknown"> {
  const answer = yield* ask(domain, "TXT");
  if ("unknown" in answer) return "unknown";
  failed(answer, `TXT ${domain}`);
  const found = spfRecords(records(answer));
  if (found.length > 1) throw perm(`${domain} publishes ${found.length} SPF records`);
  return found[0] ?? null;
}

/** check_host() (§4): the result for `domain`; permerror and temperror are thrown as SpfError. */
function* checkHost(ctx: Context, domain: string, depth: number): Asking<HostOutcome> {
  if (depth > MAX_DEPTH) throw perm("SPF records nested too deeply");
  const record = yield* fetchRecord(domain);
  if (record === "unknown")
    return {
      result: "neutral",
      reason: `the TXT answer for ${domain} is not recorded`,
      exp: null,
      unknown: true,
    };
  if (record === null) return { result: "none", reason: `${domain} publishes no SPF record`, exp: null };
  const parsed = parseRecord(record);
  let unknown = false;
  for (const d of parsed.directives) {
    let match = false;
    switch (d.mechanism) {
      case "all":
        match = true;
        break;
      case "ip4":
      case "ip6": {
        const ip = ctx.client?.ip;
        const prefix = d.mechanism === "ip4" ? (d.cidr4 ?? 32) : (d.cidr6 ?? 128);
        match = ip
          ? (ip.family === 4) === (d.mechanism === "ip4") && inNetwork(ip, d.network as Uint8Array, prefix)
          : prefix === 0;
        break;
      }
      case "include": {
        countLookup(ctx, d);
        const name = yield* target(ctx, d, domain);
        if (name === null) break;
        if (!validDomain(name)) throw perm(`include:${name} is not a valid domain`);
        const inner = yield* checkHost(ctx, name, depth + 1);
        if (inner.unknown) unknown = true;
        else if (inner.result === "none") throw perm(`include:${name} publishes no SPF record`);
        match = inner.result === "pass";
        break;
      }
      case "a": {
        countLookup(ctx, d);
        const name = yield* target(ctx, d, domain);
        if (name !== null && composable(name)) match = yield* addressesMatch(ctx, name, d, true);
        break;
      }
      case "mx": {
        countLookup(ctx, d);
        const name = yield* target(ctx, d, domain);
        if (name === null || !composable(name)) break;
        const mx = yield* ask(name, "MX");
        failed(mx, `MX ${name}`);
        countVoid(ctx, mx, name);
        const exchanges = records(mx);
        if (exchanges.length > MAX_NAMES) throw perm(`${name} has more than ${MAX_NAMES} MX records`);
        if (!ctx.client) {
          match = d.cidr4 === 0 && exchanges.some((x) => composable(queryName(x)));
          break;
        }
        for (const x of exchanges) {
          const host = queryName(x);
          if (composable(host) && (yield* addressesMatch(ctx, host, d, false))) {
            match = true;
            break;
          }
        }
        break;
      }
      case "ptr": {
        countLookup(ctx, d);
        const name = yield* target(ctx, d, domain);
        if (name === null || !ctx.client) break;
        const { names, ptr } = yield* validatedNames(ctx);
        if (ptr) countVoid(ctx, ptr, reverseName(ctx.client.ip));
        match = names.some((n) => under(n, name));
        break;
      }
      case "exists": {
        countLookup(ctx, d);
        const name = yield* target(ctx, d, domain);
        if (name === null || !composable(name)) break;
        const answer = yield* ask(name, "A");
        failed(answer, `A ${name}`);
        countVoid(ctx, answer, name);
        match = records(answer).length > 0;
        break;
      }
    }
    if (match)
      return {
        result: QUALIFIED[d.qualifier],
        reason: `${domain}: "${d.text}" matched`,
        exp: parsed.exp === null ? null : { spec: parsed.exp, domain },
      };
  }
  if (parsed.redirect !== null) {
    countLookup(ctx, { text: `redirect=${parsed.redirect}` });
    const name = yield* target(ctx, parsed.redirect, domain);
    if (name === null)
      return { result: "neutral", reason: `${domain}: redirect needs the client`, exp: null, unknown };
    if (!validDomain(name)) throw perm(`redirect=${name} is not a valid domain`);
    const inner = yield* checkHost(ctx, name, depth + 1);
    if (inner.result === "none") throw perm(`redirect=${name} publishes no SPF record`);
    return inner;
  }
  return { result: "neutral", reason: `${domain}: no term matched (default neutral)`, exp: null, unknown };
}

/** The exp= explanation of a fail (§6.2), or undefined when it cannot be had. */
function* explanation(ctx: Context, exp: { spec: string; domain: string }): Asking<string | undefined> {
  try {
    const name = yield* target(ctx, exp.spec, exp.domain);
    if (name === null || !composable(name)) return undefined;
    const answer = yield* ask(name, "TXT");
    if (!("rcode" in answer) || answer.rcode !== 0 || answer.records.length !== 1) return undefined;
    const text = answer.records[0] as string;
    if (/[^\x20-\x7e]/.test(text)) return undefined;
    return (yield* expand(ctx, text, exp.domain, true)) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * check_host() for an SMTP client (RFC 7208 §4): the identity is MAIL FROM, or `postmaster@<HELO>` for a bounce;
 * a malformed or single-label domain gives `none` (§4.3).
 */
export function* evaluateSpf(client: SpfClient): Asking<SpfEvaluation> {
  const identity = client.mailFrom === "" ? `postmaster@${client.helo}` : client.mailFrom;
  const at = identity.lastIndexOf("@");
  const local = at > 0 ? identity.slice(0, at) : "postmaster";
  const domain = identity.slice(at + 1);
  const ctx: Context = {
    client,
    sender: `${local}@${domain}`,
    local,
    senderDomain: domain,
    lookups: 0,
    voids: 0,
  };
  if (!validDomain(domain) || domain.startsWith("["))
    return { result: "none", reason: `${domain} is not a domain SPF can check`, lookups: 0, voids: 0 };
  return yield* run(ctx, domain);
}

/** The published policy of `domain` evaluated without a client: what a client no term names gets. */
export function* evaluateSpfPolicy(domain: string): Asking<SpfEvaluation> {
  const ctx: Context = {
    client: null,
    sender: `postmaster@${domain}`,
    local: "postmaster",
    senderDomain: domain,
    lookups: 0,
    voids: 0,
  };
  return yield* run(ctx, domain);
}

function* run(ctx: Context, domain: string): Asking<SpfEvaluation> {
  try {
    const outcome = yield* checkHost(ctx, domain, 0);
    const out: SpfEvaluation = {
      result: outcome.result,
      reason: outcome.reason,
      lookups: ctx.lookups,
      voids: ctx.voids,
    };
    if (outcome.result === "fail" && outcome.exp) {
      const text = yield* explanation(ctx, outcome.exp);
      if (text !== undefined) out.explanation = text;
    }
    return out;
  } catch (e) {
    if (!(e instanceof SpfError)) throw e;
    return { result: e.result, reason: e.message, lookups: ctx.lookups, voids: ctx.voids };
  }
}

/** Runs an evaluation with a synchronous DNS (recorded answers, a test zone). */
export function runSpf(evaluation: Asking<SpfEvaluation>, dns: (q: SpfQuestion) => SpfAnswer): SpfEvaluation {
  let step = evaluation.next();
  while (!step.done) step = evaluation.next(dns(step.value));
  return step.value;
}

/** Runs an evaluation with an asynchronous DNS (the network). */
export async function runSpfAsync(
  evaluation: Asking<SpfEvaluation>,
  dns: (q: SpfQuestion) => Promise<SpfAnswer>,
): Promise<SpfEvaluation> {
  let step = evaluation.next();
  while (!step.done) step = evaluation.next(await dns(step.value));
  return step.value;
}
