// The console's pages: each is a route and an entry of the navigation, in this order.
import type { ComponentType } from 'react';
import { Overview } from './pages/Overview';
import { Usage } from './pages/Usage';

export interface Page {
  path: string;
  label: string;
  Page: ComponentType;
}

export const PAGES: Page[] = [
  { path: '/', label: 'Overview', Page: Overview },
  { path: '/usage', label: 'Usage', Page: Usage },
];
