// The console's client for the account's queues (/console/api/queues): the Voice API's queues, each
// member with the call they are on.
import { api } from '../api';

export interface QueueMember {
  id: string;
  name: string;
  phone: string;
  available: boolean;
}

export interface Queue {
  id: string;
  name: string;
  members: (QueueMember & { busy_call_id: string | null })[];
  max_wait_sec: number;
  hold_message: string | null;
  created_at: string;
  updated_at: string;
}

export interface QueueInput {
  name?: string;
  /** A member without an id gets one (mem_…). */
  members?: (Omit<QueueMember, 'id'> & { id?: string })[];
  max_wait_sec?: number;
  hold_message?: string | null;
}

const path = (id: string) => `/queues/${encodeURIComponent(id)}`;

/** A queue's members as the Voice API takes them (without their live state). */
export const membersOf = (queue: Queue): QueueMember[] =>
  queue.members.map(({ id, name, phone, available }) => ({ id, name, phone, available }));

export const queuesApi = {
  list: () => api.get<{ data: Queue[] }>('/queues').then((r) => r.data),
  create: (input: QueueInput & { name: string }) => api.post<Queue>('/queues', input),
  update: (id: string, patch: QueueInput) => api.patch<Queue>(path(id), patch),
  remove: (id: string) => api.delete<Queue>(path(id)),
  setAvailable: (id: string, memberId: string, available: boolean) =>
    api.patch<Queue>(`${path(id)}/members/${encodeURIComponent(memberId)}`, { available }),
};
