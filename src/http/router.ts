import type { RouteSpec } from "./route.ts";

/** A route found for a path, with its raw (percent-decoded) path parameters. */
export interface RouteMatch {
  readonly route: RouteSpec;
  readonly params: Readonly<Record<string, string>>;
}

interface ParamRoute {
  route: RouteSpec;
  /**
   * The template as literal runs and parameters: `/api/v1/universities/:id/scores` is `/api/v1/universities/`, `id`,
   * `/scores`. A path is matched by comparing the runs in place, with no array of its segments made.
   */
  parts: (string | { name: string })[];
}

/** A percent-encoded unreserved character (RFC 3986 §2.3): the same as the character itself. */
const ENCODED_UNRESERVED = /%(?:[46][1-9A-F]|[57][0-9A]|3[0-9]|2[DE]|5F|7E)/gi;

/**
 * The one form of a path that routes are matched on, so that every form naming the same resource reaches the
 * same route and so the same access rules: percent-encoded unreserved characters decoded (RFC 3986 §6.2.2.2) and
 * one trailing slash dropped. Dot segments and backslashes are resolved before, by the URL parser that made the
 * request's URL. Case and empty segments are kept (paths are case-sensitive; `//` names another resource).
 */
export function canonicalPath(pathname: string): string {
  const decoded = pathname.includes("%")
    ? pathname.replace(ENCODED_UNRESERVED, (e) => String.fromCharCode(Number.parseInt(e.slice(1), 16)))
    : pathname;
  return decoded.length > 1 && decoded.endsWith("/") ? decoded.slice(0, -1) : decoded;
}

/**
 * Finds a request's route by its path alone, in its canonical form (`canonicalPath`): static paths by one Map
 * lookup, paths with `:name` segments by comparing their literal runs in place. A parameter that is not valid
 * percent-encoding, or empty, matches nothing. The route found is the request's identity for everything after
 * (access rules, version). `match` takes any path; `matchCanonical` one that is canonical already.
 */
export function createRouter(routes: readonly RouteSpec[]) {
  /** Static paths and their one match each (no parameters), made once. */
  const exact = new Map<string, RouteMatch>();
  const withParams: ParamRoute[] = [];
  for (const route of routes) {
    if (!route.path.includes("/:")) {
      exact.set(route.path, Object.freeze({ route, params: Object.freeze({}) }));
      continue;
    }
    const parts: ParamRoute["parts"] = [];
    let literal = "";
    for (const segment of route.path.split("/").slice(1)) {
      if (segment.startsWith(":")) {
        parts.push(`${literal}/`, { name: segment.slice(1) });
        literal = "";
      } else literal += `/${segment}`;
    }
    if (literal !== "") parts.push(literal);
    withParams.push({ route, parts });
  }

  /** The parameters of `path` by `parts`, or null when it does not fit. */
  const fit = (parts: ParamRoute["parts"], path: string): Record<string, string> | null => {
    let params: Record<string, string> | null = null;
    let at = 0;
    for (const part of parts) {
      if (typeof part === "string") {
        if (!path.startsWith(part, at)) return null;
        at += part.length;
        continue;
      }
      let end = path.indexOf("/", at);
      if (end < 0) end = path.length;
      if (end === at) return null;
      const value = decodeSegment(path.slice(at, end));
      if (value === null) return null;
      params ??= {};
      params[part.name] = value;
      at = end;
    }
    return at === path.length ? params : null;
  };

  const matchCanonical = (path: string): RouteMatch | null => {
    const found = exact.get(path);
    if (found) return found;
    for (const candidate of withParams) {
      const params = fit(candidate.parts, path);
      if (params !== null) return { route: candidate.route, params };
    }
    return null;
  };
  return { match: (pathname: string) => matchCanonical(canonicalPath(pathname)), matchCanonical };
}

function decodeSegment(part: string): string | null {
  if (!part.includes("%")) return part;
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}
