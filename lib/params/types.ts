import { type TSchema, type TUnsafe, Type } from "@sinclair/typebox";

/** A string enum rendered as `{type: "string", enum: [...]}` (clearer in OpenAPI than a union of literals). */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

export const Id = (description = "Identifier (a positive integer)") =>
  Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1, description });

export const Page = () => Type.Integer({ minimum: 1, default: 1, description: "Page number, from 1" });

export const Limit = (defaultValue: number, maximum = 100) =>
  Type.Integer({
    minimum: 1,
    maximum,
    default: defaultValue,
    description: `Entries per page, 1 to ${maximum}`,
  });

export const Search = () =>
  Type.String({
    minLength: 1,
    maxLength: 100,
    // No control characters (C0, DEL, C1): PostgreSQL cannot even hold NUL in text, and no name contains one.
    pattern: "^[^\\x00-\\x1F\\x7F-\\x9F]*$",
    description: "Case-, accent- and width-insensitive substring of the name or domain",
  });

export const Country = () =>
  Type.String({
    pattern: "^[A-Za-z]{2}$",
    description: "ISO 3166-1 alpha-2 country code, any case",
    examples: ["DE"],
  });

export type ParamsSchema = ReturnType<typeof Type.Object<Record<string, TSchema>>>;
