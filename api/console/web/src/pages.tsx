// The console's pages: each is a route and an entry of the navigation, in this order.
import type { ComponentType } from 'react';
import type { Role } from './api';
import { Overview } from './pages/Overview';
import { Calls } from './pages/Calls';
import { CallPage } from './pages/Call';
import { ApiKeys } from './pages/ApiKeys';
import { Webhooks } from './pages/Webhooks';
import { DoNotCall } from './pages/DoNotCall';
import { Carrier } from './pages/Carrier';
import { Users } from './pages/Users';
import { Audit } from './pages/Audit';
import { Agents } from './pages/Agents';
import { Conversations } from './pages/Conversations';
import { Jobs } from './pages/Jobs';
import { Usage } from './pages/Usage';
import { Numbers } from './pages/Numbers';
import { Campaigns } from './pages/Campaigns';
import { CampaignRun } from './pages/CampaignRun';
import { Connections } from './pages/Connections';
import { Queues } from './pages/Queues';
import { Mailboxes } from './pages/Mailboxes';
import { Billing } from './pages/Billing';

export interface Page {
  path: string;
  label: string;
  Page: ComponentType;
  /** false: reached from another page, not from the navigation. */
  nav?: false;
  /** The least role its data is served to; the navigation leaves the page out below it. */
  role?: Role;
}

export const PAGES: Page[] = [
  { path: '/', label: 'Overview', Page: Overview },
  { path: '/calls', label: 'Calls', Page: Calls },
  { path: '/calls/:id', label: 'Call', Page: CallPage, nav: false },
  { path: '/jobs', label: 'Jobs', Page: Jobs },
  { path: '/conversations', label: 'Conversations', Page: Conversations },
  { path: '/agents', label: 'Agents', Page: Agents },
  { path: '/numbers', label: 'Numbers', Page: Numbers },
  { path: '/campaigns', label: 'Campaigns', Page: Campaigns },
  { path: '/campaign-runs/:id', label: 'Campaign run', Page: CampaignRun, nav: false },
  { path: '/connections', label: 'Connections', Page: Connections },
  { path: '/queues', label: 'Queues', Page: Queues },
  { path: '/mailboxes', label: 'Mailboxes', Page: Mailboxes },
  { path: '/usage', label: 'Usage', Page: Usage },
  { path: '/billing', label: 'Billing', Page: Billing, role: 'admin' },
  { path: '/api-keys', label: 'API keys', Page: ApiKeys },
  { path: '/webhooks', label: 'Webhooks', Page: Webhooks },
  { path: '/do-not-call', label: 'Do-not-call list', Page: DoNotCall },
  { path: '/carrier', label: 'Carrier', Page: Carrier, role: 'admin' },
  { path: '/users', label: 'Users', Page: Users, role: 'admin' },
  { path: '/audit', label: 'Audit log', Page: Audit, role: 'owner' },
];
