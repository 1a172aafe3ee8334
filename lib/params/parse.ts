import type { TObject, TSchema } from "@sinclair/typebox";
import { type ErrorDetail, invalidParameter } from "../errors.ts";

export type RawParams = Record<string, string | string[] | undefined>;

interface Constraints {
  type?: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
}

/** Numbers are plain decimals of at most 15 digits before and after the point (a double keeps 15 exactly). */
const MAX_DIGITS = 15;
const DECIMAL = /^-?[0-9]+(?:\.[0-9]+)?$/;

function rangeText(c: Constraints): string {
  if (c.minimum !== undefined && c.maximum !== undefined) return ` from ${c.minimum} to ${c.maximum}`;
  if (c.minimum !== undefined) return ` of at least ${c.minimum}`;
  if (c.maximum !== undefined) return ` of at most ${c.maximum}`;
  return "";
}

/** The characters of a string as its iterator counts them (code points; a lone surrogate is one), in place. */
function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** A raw value that its constraints refuse, and why. */
class Refused {
  constructor(readonly message: string) {}
}

/** The value of one raw parameter, or `Refused`; the messages are made only for a refusal. */
function parseOne(name: string, raw: string, c: Constraints): unknown {
  if (c.type === "integer" || c.type === "number") {
    const integer = c.type === "integer";
    const expected = () => `${name} must be ${integer ? "an integer" : "a number"}${rangeText(c)}`;
    const negative = raw.startsWith("-");
    const dot = raw.indexOf(".");
    if (!DECIMAL.test(raw) || (integer && (dot >= 0 || negative))) {
      return new Refused(
        integer ? expected() : `${expected()}, written as digits with an optional decimal point (as in 72.5)`,
      );
    }
    if ((dot < 0 ? raw.length : dot) - (negative ? 1 : 0) > MAX_DIGITS) {
      return new Refused(
        `${expected()} with at most ${MAX_DIGITS} digits${integer ? "" : " before the decimal point"}`,
      );
    }
    const decimals = dot < 0 ? 0 : raw.length - dot - 1;
    if (decimals > MAX_DIGITS) {
      return new Refused(`${expected()} with at most ${MAX_DIGITS} decimals (${raw} has ${decimals})`);
    }
    const n = Number(raw);
    if ((c.minimum !== undefined && n < c.minimum) || (c.maximum !== undefined && n > c.maximum)) {
      return new Refused(expected());
    }
    return n;
  }
  if (c.enum) {
    if (!c.enum.includes(raw)) return new Refused(`${name} must be one of: ${c.enum.join(", ")}`);
    return raw;
  }
  const length = c.minLength === undefined && c.maxLength === undefined ? 0 : codePoints(raw);
  if (c.minLength !== undefined && length < c.minLength) {
    return new Refused(`${name} must be at least ${c.minLength} character${c.minLength === 1 ? "" : "s"}`);
  }
  if (c.maxLength !== undefined && length > c.maxLength) {
    return new Refused(`${name} must be at most ${c.maxLength} characters`);
  }
  if (c.pattern !== undefined && !patternOf(c.pattern).test(raw)) {
    return new Refused(`${name} is malformed${c.pattern ? ` (${describePattern(name)})` : ""}`);
  }
  return raw;
}

const patterns = new Map<string, RegExp>();
function patternOf(source: string): RegExp {
  let re = patterns.get(source);
  if (!re) {
    re = new RegExp(source, "u");
    patterns.set(source, re);
  }
  return re;
}

function describePattern(name: string): string {
  if (name === "country") return "an ISO 3166-1 alpha-2 code such as DE";
  if (name === "ids") return "comma-separated positive integers";
  if (name === "search") return "control characters are not allowed";
  return "see the documentation";
}

interface Field {
  name: string;
  c: Constraints;
  required: boolean;
}
const fields = new WeakMap<TObject, Field[]>();
/** The properties of a schema, read once per schema (parsing runs on every request). */
function fieldsOf(schema: TObject): Field[] {
  let list = fields.get(schema);
  if (!list) {
    const required = new Set(schema.required ?? []);
    list = Object.entries(schema.properties as Record<string, TSchema>).map(([name, prop]) => ({
      name,
      c: prop as unknown as Constraints,
      required: required.has(name),
    }));
    fields.set(schema, list);
  }
  return list;
}

/**
 * Strictly parses raw query or path values against a TypeBox object schema: integers are base-10 digits
 * only, numbers are plain decimals, enums are exact, defaults fill absent optional values. Every bad
 * parameter is named; the first failure throws `INVALID_PARAMETER` with all of them in `details`.
 * Unknown parameters are ignored, whatever their name.
 */
export function parseParams<T extends TObject>(schema: T, raw: RawParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const details: ErrorDetail[] = [];
  for (const { name, c, required } of fieldsOf(schema)) {
    // Own values only: a plain object's inherited members (`constructor`, `toString`) are no parameters.
    let value = Object.hasOwn(raw, name) ? raw[name] : undefined;
    if (Array.isArray(value)) {
      if (value.length > 1) {
        details.push({ param: name, message: `${name} must be given once` });
        continue;
      }
      value = value[0];
    }
    if (value === undefined) {
      if (required) details.push({ param: name, message: `${name} is required` });
      else if (c.default !== undefined) out[name] = c.default;
      continue;
    }
    const parsed = parseOne(name, value, c);
    if (parsed instanceof Refused) details.push({ param: name, message: parsed.message });
    else out[name] = parsed;
  }
  if (details.length > 0) throw invalidParameter(details);
  return out;
}
