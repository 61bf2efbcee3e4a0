// The console's pages: each is a route and an entry of the navigation, in this order.
import type { ComponentType } from 'react';
import { Overview } from './pages/Overview';
import { ApiKeys } from './pages/ApiKeys';
import { Webhooks } from './pages/Webhooks';
import { DoNotCall } from './pages/DoNotCall';
import { Carrier } from './pages/Carrier';
import { Users } from './pages/Users';
import { Audit } from './pages/Audit';

export interface Page {
  path: string;
  label: string;
  Page: ComponentType;
}

export const PAGES: Page[] = [
  { path: '/', label: 'Overview', Page: Overview },
  { path: '/api-keys', label: 'API keys', Page: ApiKeys },
  { path: '/webhooks', label: 'Webhooks', Page: Webhooks },
  { path: '/do-not-call', label: 'Do-not-call list', Page: DoNotCall },
  { path: '/carrier', label: 'Carrier', Page: Carrier },
  { path: '/users', label: 'Users', Page: Users },
  { path: '/audit', label: 'Audit log', Page: Audit },
];
