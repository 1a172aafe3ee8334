import { type TObject, type TProperties, type TSchema, Type } from "@sinclair/typebox";
import { StringEnum } from "../../../lib/index.ts";

/**
 * The wire parameters and meta of the lists: `format` (JSON or CSV) on every list of v1 and v2; on the v2 lists a
 * walk can page through, `cursor` and page sizes up to `KEYED_MAX_LIMIT` for requests made with an API key.
 */

/** The largest v2 page of a request with an API key (or on a server without access control). */
export const KEYED_MAX_LIMIT = 1000;

/** What the pipeline needs to know of a list route. */
export interface ListSpec {
  /**
   * The query schema of requests made without an API key, whose `limit` stops lower than the route's own `query`
   * (which OpenAPI shows); absent: `query` for everyone.
   */
  anonymousQuery?: TObject;
}

/** The hint an anonymous request's out-of-range `limit` gets. */
export const KEYED_LIMIT_HINT = ` (up to ${KEYED_MAX_LIMIT} with an API key)`;

export const FormatParam = StringEnum(["json", "csv"] as const, {
  description:
    "`csv`: the rows as CSV (RFC 4180, UTF-8, a header row; nested fields as `<field>_<member>`); " +
    "`Accept: text/csv` asks the same. Default: JSON",
});

export const CursorParam = Type.String({
  minLength: 1,
  maxLength: 4096,
  description:
    "Walk the whole list: `*` for the first page, then each answer's `meta.next_cursor` (in CSV the " +
    "`X-Next-Cursor` header) until it is null. Every row of the list as it stood at the first page, exactly " +
    "once, whatever is written meanwhile. Not with `page`",
});

/** A list that answers CSV too: its parameters and `format`. */
export function csvList<P extends TProperties>(base: TObject<P>) {
  return {
    query: Type.Object({ ...base.properties, format: Type.Optional(FormatParam) }),
    list: {} as ListSpec,
  };
}

/**
 * A v2 list a walk can page through: its parameters with `cursor`, `format`, and a `limit` of up to `anonymous`
 * rows for requests without an API key and `KEYED_MAX_LIMIT` with one.
 */
export function cursorList<P extends TProperties>(
  base: TObject<P>,
  limit: { default: number; anonymous: number },
) {
  const description = `Entries per page, 1 to ${limit.anonymous}; up to ${KEYED_MAX_LIMIT} with an API key`;
  const withLimit = (maximum: number) =>
    Type.Object({
      ...base.properties,
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum, default: limit.default, description })),
      cursor: Type.Optional(CursorParam),
      format: Type.Optional(FormatParam),
    });
  return {
    query: withLimit(KEYED_MAX_LIMIT),
    list: { anonymousQuery: withLimit(limit.anonymous) } as ListSpec,
  };
}

const NextCursor = Type.Union([Type.String(), Type.Null()], {
  description: "The cursor of the next page; null after the last one",
});

/**
 * The meta of a list that may be walked: its page meta, or (with `cursor`) the same without `page` and with
 * `next_cursor`.
 */
export function cursorMeta(meta: TObject): TSchema {
  const { page: _, ...rest } = meta.properties as Record<string, TSchema>;
  return Type.Union([
    meta,
    Type.Object(
      { ...rest, next_cursor: NextCursor },
      { description: "The meta of a page of a walk (cursor)" },
    ),
  ]);
}
