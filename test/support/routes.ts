// What an express app routes and what an OpenAPI document describes, both as `METHOD /path`
// (express style, `:param`), so a test can check that every mounted route is documented.
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  rawPath?: string;
}

/** Every `METHOD /path` the express app routes, once each (a route may have a fast path mounted before it), found by walking its (nested) routers. */
export function mountedRoutes(stack: unknown[], prefix = ''): string[] {
  return [...new Set(routesIn(stack, prefix))];
}

function routesIn(stack: unknown[], prefix: string): string[] {
  return (stack as Layer[]).flatMap((layer) => {
    if (layer.route) return Object.keys(layer.route.methods).map((m) => `${m.toUpperCase()} ${prefix}${layer.route!.path}`);
    if (layer.handle.stack) return routesIn(layer.handle.stack, layer.rawPath && layer.rawPath !== '/' ? prefix + layer.rawPath : prefix);
    return [];
  });
}

/** Every `METHOD /path` the document describes under `base`, with `{param}` written the express way. */
export function documentedRoutes(doc: any, base: string): string[] {
  return Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((k) => METHODS.includes(k))
      .map((m) => `${m.toUpperCase()} ${base}${path.replace(/\{(\w+)\}/g, ':$1')}`),
  );
}

/** Each operation of each path declares exactly that path's `{param}`s, by name. */
export function undeclaredPathParams(doc: any): string[] {
  const problems: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const method of Object.keys(item).filter((k) => METHODS.includes(k))) {
      const declared = (item[method].parameters ?? [])
        .filter((p: any) => p.in === 'path')
        .map((p: any) => p.name)
        .sort();
      if (JSON.stringify(declared) !== JSON.stringify(names))
        problems.push(`${method.toUpperCase()} ${path}: declares ${declared.join(', ') || 'none'}`);
    }
  }
  return problems;
}
