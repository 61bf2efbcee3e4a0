// A message's lifecycle (DECISIONS.md "Messages"): new → read → archived, forward only. Code asks
// which statuses an event moves from (sourcesIn); tests iterate over MESSAGE_TRANSITIONS.
import type { TableRow } from '../state-table.js';

export const MESSAGE_STATUSES = ['new', 'read', 'archived'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

type MessageEvent = 'read' | 'archive';

export const MESSAGE_TRANSITIONS: readonly TableRow<MessageStatus, MessageEvent>[] = [
  { from: 'new', event: 'read', to: 'read', effect: 'someone read it' },
  { from: 'new', event: 'archive', to: 'archived', effect: 'put away unread' },
  { from: 'read', event: 'archive', to: 'archived', effect: 'put away' },
];

/** The event that moves a message to `to`. */
export const EVENT_TO: Record<Exclude<MessageStatus, 'new'>, MessageEvent> = { read: 'read', archived: 'archive' };
