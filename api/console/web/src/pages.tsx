// The console's pages: each is a route and an entry of the navigation, in this order.
import type { ComponentType } from 'react';
import { Overview } from './pages/Overview';
import { Usage } from './pages/Usage';
import { Numbers } from './pages/Numbers';

export interface Page {
  path: string;
  label: string;
  Page: ComponentType;
}

export const PAGES: Page[] = [
  { path: '/', label: 'Overview', Page: Overview },
  { path: '/usage', label: 'Usage', Page: Usage },
  { path: '/numbers', label: 'Numbers', Page: Numbers },
];
