// The console's pages: each is a route and an entry of the navigation, in this order.
import type { ComponentType } from 'react';
import { Overview } from './pages/Overview';
import { Calls } from './pages/Calls';
import { CallPage } from './pages/Call';

export interface Page {
  path: string;
  label: string;
  Page: ComponentType;
  /** false: reached from another page, not from the navigation. */
  nav?: false;
}

export const PAGES: Page[] = [
  { path: '/', label: 'Overview', Page: Overview },
  { path: '/calls', label: 'Calls', Page: Calls },
  { path: '/calls/:id', label: 'Call', Page: CallPage, nav: false },
];
