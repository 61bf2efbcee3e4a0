// The reference's pages for its index, at build time (docs/.vitepress/reference.ts).
import { referencePages } from '../.vitepress/reference.js';

export default {
  load: () =>
    referencePages().map(({ slug, title, pages }) => ({ slug, title, pages: pages.map((p) => ({ slug: p.slug, title: p.title })) })),
};
