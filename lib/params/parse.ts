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
const DECIMAL = /^-?([0-9]+)(?:\.([0-9]+))?$/;

function rangeText(c: Constraints): string {
  if (c.minimum !== undefined && c.maximum !== undefined) return ` from ${c.minimum} to ${c.maximum}`;
  if (c.minimum !== undefined) return ` of at least ${c.minimum}`;
  if (c.maximum !== undefined) return ` of at most ${c.maximum}`;
  return "";
}

function parseOne(name: string, raw: string, c: Constraints): { value?: unknown; error?: string } {
  if (c.type === "integer" || c.type === "number") {
    const integer = c.type === "integer";
    const expected = `${name} must be ${integer ? "an integer" : "a number"}${rangeText(c)}`;
    const m = DECIMAL.exec(raw);
    const whole = m?.[1] ?? "";
    const fraction = m?.[2];
    if (!m || (integer && (fraction !== undefined || raw.startsWith("-")))) {
      return {
        error: integer
          ? expected
          : `${expected}, written as digits with an optional decimal point (as in 72.5)`,
      };
    }
    if (whole.length > MAX_DIGITS) {
      return {
        error: `${expected} with at most ${MAX_DIGITS} digits${integer ? "" : " before the decimal point"}`,
      };
    }
    if (fraction !== undefined && fraction.length > MAX_DIGITS) {
      return {
        error: `${expected} with at most ${MAX_DIGITS} decimals (${raw} has ${fraction.length})`,
      };
    }
    const n = Number(raw);
    if ((c.minimum !== undefined && n < c.minimum) || (c.maximum !== undefined && n > c.maximum)) {
      return { error: expected };
    }
    return { value: n };
  }
  if (c.enum) {
    if (!c.enum.includes(raw)) return { error: `${name} must be one of: ${c.enum.join(", ")}` };
    return { value: raw };
  }
  const length = [...raw].length;
  if (c.minLength !== undefined && length < c.minLength) {
    return { error: `${name} must be at least ${c.minLength} character${c.minLength === 1 ? "" : "s"}` };
  }
  if (c.maxLength !== undefined && length > c.maxLength) {
    return { error: `${name} must be at most ${c.maxLength} characters` };
  }
  if (c.pattern !== undefined && !patternOf(c.pattern).test(raw)) {
    return { error: `${name} is malformed${c.pattern ? ` (${describePattern(name)})` : ""}` };
  }
  return { value: raw };
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
    if (parsed.error) details.push({ param: name, message: parsed.error });
    else out[name] = parsed.value;
  }
  if (details.length > 0) throw invalidParameter(details);
  return out;
}
