// The console's pages: each is a route and an entry of the navigation, in this order.
import type { ComponentType } from 'react';
import { Overview } from './pages/Overview';
import { Agents } from './pages/Agents';
import { Conversations } from './pages/Conversations';
import { Jobs } from './pages/Jobs';

export interface Page {
  path: string;
  label: string;
  Page: ComponentType;
}

export const PAGES: Page[] = [
  { path: '/', label: 'Overview', Page: Overview },
  { path: '/jobs', label: 'Jobs', Page: Jobs },
  { path: '/conversations', label: 'Conversations', Page: Conversations },
  { path: '/agents', label: 'Agents', Page: Agents },
];
