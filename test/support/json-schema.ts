import { expect } from "bun:test";
import type { TSchema } from "@sinclair/typebox";
import Ajv2020 from "ajv/dist/2020.js";

/** A real JSON Schema 2020-12 validator (the dialect of OpenAPI 3.1), for checking answers against schemas. */
export const ajv = new Ajv2020({ strict: false, allErrors: true });

/** Asserts that `value` matches the JSON Schema (a TypeBox schema is plain JSON Schema), naming every mismatch. */
export function expectMatches(schema: TSchema | Record<string, unknown>, value: unknown): void {
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema)));
  const ok = validate(value);
  expect(ok ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)).toEqual([]);
}
