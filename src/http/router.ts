import type { RouteSpec } from "./route.ts";

/** A route found for a path, with its raw (percent-decoded) path parameters. */
export interface RouteMatch {
  route: RouteSpec;
  params: Record<string, string>;
}

interface ParamRoute {
  route: RouteSpec;
  /** Literal segments as strings; a parameter as `{ name }`. */
  segments: (string | { name: string })[];
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
 * lookup, paths with `:name` segments by comparing segments. A parameter that is not valid percent-encoding
 * matches nothing. The route found is the request's identity for everything after (access rules, version).
 */
export function createRouter(routes: readonly RouteSpec[]) {
  const exact = new Map<string, RouteSpec>();
  const withParams: ParamRoute[] = [];
  for (const route of routes) {
    if (!route.path.includes("/:")) {
      exact.set(route.path, route);
      continue;
    }
    const segments = route.path
      .split("/")
      .slice(1)
      .map((s) => (s.startsWith(":") ? { name: s.slice(1) } : s));
    withParams.push({ route, segments });
  }

  const match = (pathname: string): RouteMatch | null => {
    const path = canonicalPath(pathname);
    const route = exact.get(path);
    if (route) return { route, params: {} };
    const parts = path.split("/").slice(1);
    for (const candidate of withParams) {
      if (candidate.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const segment = candidate.segments[i]!;
        const part = parts[i]!;
        if (typeof segment === "string") ok = segment === part;
        else if (part === "") ok = false;
        else {
          const value = decodeSegment(part);
          if (value === null) ok = false;
          else params[segment.name] = value;
        }
      }
      if (ok) return { route: candidate.route, params };
    }
    return null;
  };
  return { match };
}

function decodeSegment(part: string): string | null {
  if (!part.includes("%")) return part;
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}
