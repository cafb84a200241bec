/**
 * Path templates → routes. Static paths are one map lookup; templates with `{param}` segments are
 * tried in order of specificity (more literal segments first). A trailing slash is not significant.
 */
import type { ApiVersion, HttpMethod, Route } from './types.js';

interface Compiled {
  route: Route;
  segments: (string | { param: string })[];
  version: ApiVersion;
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string>; version: ApiVersion }
  | { kind: 'method_not_allowed'; allow: HttpMethod[] }
  | { kind: 'not_found' };

const normalise = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
const versionOf = (path: string): ApiVersion => (path.startsWith('/v2/') ? 2 : 1);

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export interface Router {
  match(method: string, path: string): RouteMatch;
  readonly routes: readonly Route[];
}

/** Builds a router; on duplicate `method path` pairs the first route wins. */
export function createRouter(routes: readonly Route[]): Router {
  const statics = new Map<string, Map<string, Compiled>>();
  const dynamics: Compiled[] = [];
  const seen = new Set<string>();
  const kept: Route[] = [];
  for (const route of routes) {
    const path = normalise(route.path);
    const id = `${route.method} ${path}`;
    if (seen.has(id)) continue;
    seen.add(id);
    kept.push(route);
    const segments = path
      .split('/')
      .slice(1)
      .map((s) => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : s));
    const compiled: Compiled = { route, segments, version: versionOf(path) };
    if (segments.every((s) => typeof s === 'string')) {
      let byMethod = statics.get(path);
      if (!byMethod) statics.set(path, (byMethod = new Map()));
      byMethod.set(route.method, compiled);
    } else {
      dynamics.push(compiled);
    }
  }
  const literalCount = (c: Compiled) => c.segments.filter((s) => typeof s === 'string').length;
  dynamics.sort((a, b) => literalCount(b) - literalCount(a));

  return {
    routes: kept,
    match(method, rawPath) {
      const path = normalise(rawPath);
      const allow = new Set<HttpMethod>();
      const byMethod = statics.get(path);
      if (byMethod) {
        const hit = byMethod.get(method);
        if (hit) return { kind: 'found', route: hit.route, params: {}, version: hit.version };
        for (const m of byMethod.keys()) allow.add(m as HttpMethod);
      }
      const parts = path.split('/').slice(1);
      for (const c of dynamics) {
        if (c.segments.length !== parts.length) continue;
        const params: Record<string, string> = {};
        let ok = true;
        for (let i = 0; i < parts.length && ok; i++) {
          const seg = c.segments[i]!;
          const part = parts[i]!;
          if (typeof seg === 'string') ok = seg === part;
          else if (part === '') ok = false;
          else params[seg.param] = decode(part);
        }
        if (!ok) continue;
        if (c.route.method === method) return { kind: 'found', route: c.route, params, version: c.version };
        allow.add(c.route.method);
      }
      return allow.size > 0 ? { kind: 'method_not_allowed', allow: [...allow] } : { kind: 'not_found' };
    },
  };
}
