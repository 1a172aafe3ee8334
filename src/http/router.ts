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

/**
 * Finds a request's route by its path alone: static paths by one Map lookup, paths with `:name` segments by
 * comparing segments. A trailing slash is tolerated; a parameter that is not valid percent-encoding matches
 * nothing.
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
    const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
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
