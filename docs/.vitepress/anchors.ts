// After the build: every link of a built page into the site (`/docs/page`, `/docs/page#id`, `#id`)
// must name a built page and an id it has. VitePress checks Markdown links to pages, not anchors,
// nor the links Vue components and generated pages render.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.html'));
}

/** The built file a site path names: `/docs/a/b` and `/docs/a/b.html` are a/b.html, `/docs/a/` is a/index.html. */
export function builtFile(path: string, base: string): string {
  const inside = path.slice(base.length);
  if (inside === '' || inside.endsWith('/')) return `${inside}index.html`;
  return inside.endsWith('.html') ? inside : `${inside}.html`;
}

export function checkAnchors(outDir: string, base: string): void {
  const files = htmlFiles(outDir);
  const ids = new Map(
    files.map((file) => [file, new Set([...readFileSync(join(outDir, file), 'utf8').matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!))]),
  );
  const broken: string[] = [];
  for (const file of files) {
    const html = readFileSync(join(outDir, file), 'utf8');
    for (const [, href] of html.matchAll(/\shref="([^"]*)"/g)) {
      const [path, hash] = href!.split('#') as [string, string | undefined];
      // Outside the site, its files (not pages), and the interactive reference (a page of its own) are not this check's.
      if (path !== '' && (!path.startsWith(base) || path.startsWith(`${base}assets/`) || path.startsWith(`${base}api/`))) continue;
      if ((path === '' && hash === undefined) || /\.(?!html$)\w+$/.test(path)) continue;
      const known = ids.get(path === '' ? file : builtFile(path, base));
      if (!known || (hash && !known.has(decodeURIComponent(hash)))) broken.push(`${relative(outDir, join(outDir, file))}: ${href}`);
    }
  }
  if (broken.length > 0) throw new Error(`Links to pages or anchors that do not exist:\n${broken.join('\n')}`);
}
