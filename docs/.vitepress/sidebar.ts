// The sidebar from the folders: each page of docs/concepts and docs/guides in the order of its
// frontmatter's `order`, titled by its `title` or first heading, so adding a page needs no config.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { DefaultTheme } from 'vitepress';
import { referencePages } from './reference.js';

interface Page {
  link: string;
  title: string;
  order: number;
}

/** A page's frontmatter (between the opening `---` lines) and its first `# ` heading. */
export function pageMeta(source: string): { title?: string; order?: number } {
  const front = /^---\n([\s\S]*?)\n---\n/.exec(source);
  const data = front ? (parse(front[1]!) ?? {}) : {};
  const heading = /^# (.+)$/m.exec(front ? source.slice(front[0].length) : source)?.[1]?.trim();
  return { title: data.title ?? heading, order: typeof data.order === 'number' ? data.order : undefined };
}

function folder(docs: string, name: string): Page[] {
  return readdirSync(join(docs, name))
    .filter((file) => file.endsWith('.md') && file !== 'index.md')
    .map((file) => {
      const meta = pageMeta(readFileSync(join(docs, name, file), 'utf8'));
      if (!meta.title) throw new Error(`docs/${name}/${file} has neither a title in its frontmatter nor a # heading`);
      return { link: `/${name}/${file.replace(/\.md$/, '')}`, title: meta.title, order: meta.order ?? Number.MAX_SAFE_INTEGER };
    })
    .sort((a, b) => a.order - b.order || a.title.localeCompare(b.title));
}

export function sidebar(docs: string): DefaultTheme.SidebarItem[] {
  const items = (pages: Page[]) => pages.map(({ link, title }) => ({ text: title, link }));
  return [
    { text: 'Start', items: [{ text: 'Quick start', link: '/quickstart' }] },
    { text: 'Concepts', collapsed: false, items: items(folder(docs, 'concepts')) },
    { text: 'Guides', collapsed: false, items: items(folder(docs, 'guides')) },
    ...referencePages().map((api) => ({
      text: api.title,
      collapsed: true,
      items: api.pages.map((page) => ({ text: page.title, link: `/reference/${api.slug}/${page.slug}` })),
    })),
    { text: 'Contributing', items: [{ text: 'Writing these pages', link: '/contributing' }] },
  ];
}
