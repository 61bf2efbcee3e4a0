// The console's pages: each is a route and an entry of the navigation, in this order.
import type { ComponentType } from 'react';
import { Overview } from './pages/Overview';

export interface Page {
  path: string;
  label: string;
  Page: ComponentType;
}

export const PAGES: Page[] = [{ path: '/', label: 'Overview', Page: Overview }];
