// The documentation site (VitePress): docs/ built by `make docs` into dist/docs-site, served by
// Switchboard at /docs (api/docs/site.ts). Nothing in it is fetched from anywhere but the server.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitepress';
import { checkAnchors } from './anchors.js';
import { INTERACTIVE_REFERENCE } from './reference.js';
import { sidebar } from './sidebar.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  title: 'Switchboard',
  description: "Run a company's AI agents as an API product: conversations, jobs and phone calls.",
  lang: 'en',
  base: '/docs/',
  outDir: here('../../dist/docs-site'),
  // `vitepress dev`'s cache, beside the packages rather than in docs/ or dist/.
  cacheDir: here('../../node_modules/.cache/vitepress'),
  cleanUrls: true,
  // A link to a page that does not exist fails the build (VitePress's default, kept on purpose).
  ignoreDeadLinks: false,
  // No Google Fonts or any other request off the server: the default theme's fonts are bundled.
  head: [['link', { rel: 'icon', href: 'data:,' }]],
  themeConfig: {
    nav: [
      { text: 'Quick start', link: '/quickstart' },
      { text: 'API reference', link: '/reference/' },
      { text: 'Try the API', link: INTERACTIVE_REFERENCE, target: '_self' },
    ],
    sidebar: sidebar(here('..')),
    search: { provider: 'local' },
    outline: { level: [2, 3] },
  },
  // Anchors (`page#id`) are checked after the build, as VitePress checks only pages.
  buildEnd: (site) => checkAnchors(site.outDir, '/docs/'),
});
