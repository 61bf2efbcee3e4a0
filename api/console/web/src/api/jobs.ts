// Client calls and wire types of the jobs, conversations and agents pages.
import { api } from '../api';
import type { TestMessage } from './access';

export const JOB_STATUSES = ['queued', 'running', 'waiting', 'waiting_for_reply', 'succeeded', 'failed', 'expired', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const TERMINAL: ReadonlySet<JobStatus> = new Set(['succeeded', 'failed', 'expired', 'cancelled']);

export interface Job {
  triggerId: string;
  conversationId: string;
  agentId: string;
  status: JobStatus;
  task: string;
  successCriteria: string | null;
  waitingReason: string | null;
  waitPayload: Record<string, unknown> | null;
  resultSummary: string | null;
  errorMessage: string | null;
  attemptCount: number;
  maxAttempts: number;
  nextRunAt: string | null;
  startedAt: string | null;
  completedAt: string | null;
  createdAt: string;
  expiresAt: string;
  humanReply?: { decision: string; reason: string | null; at: string } | null;
}

export interface Message {
  role: string;
  content: string;
  timestamp: string;
  metadata?: { username?: string; name?: string; toolCalls?: string[] };
}

export const CONVERSATIONS_PAGE = 50;

export interface ConversationSummary {
  id: string;
  agentId: string | null;
  contactId: number | null;
  channel: string;
  status: 'active' | 'ended';
  /** The call the conversation was had on, for a `voice` one. */
  callId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Conversation {
  conversationId: string;
  agentId: string | null;
  channel: string;
  status: 'active' | 'ended';
  createdAt: string;
  jobId: string | null;
  jobStatus: JobStatus | null;
  messages: Message[];
}

export interface AgentTool {
  name: string;
  description: string;
  url: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  authType: 'none' | 'basic' | 'apikey' | 'bearer';
  parameters: { name: string; type: string; required: boolean; description?: string }[];
}

export interface Agent {
  id: string;
  name: string;
  systemPrompt: string;
  model: string | null;
  tools: AgentTool[];
  handoffEnabled: boolean;
  handoffRoster: { roleName: string; agentId: string; greeting: string }[];
  outcomes: string[];
  messageWebhookUrl: string | null;
  /** The catalogue voice its calls speak with when they name none; null: the deployment's default. */
  voice: string | null;
  /** Its turns need a contact verified by one-time passcode; null: they do not. */
  verification: { required: boolean; method: 'passcode'; deliver_to: 'webhook' } | null;
  updatedAt: string;
}

/** A voice of the deployment's catalogue (GET /v1/voices). */
export interface VoiceOption {
  id: string;
  name: string;
  language: string;
}

/** A tool as the form sends it back: `authConfig` only when a secret is set or replaced. */
export type AgentToolInput = AgentTool & { authConfig?: Record<string, string> };

export type AgentChange = Partial<Omit<Agent, 'id' | 'updatedAt' | 'tools'>> & { tools?: AgentToolInput[] };

export type Decision = 'approved' | 'rejected' | 'provided';

export const jobsApi = {
  list: (status?: JobStatus) => api.get<{ jobs: Job[]; total: number }>(`/jobs${status ? `?status=${status}` : ''}`),
  get: (id: string) => api.get<{ job: Job }>(`/jobs/${encodeURIComponent(id)}`),
  reply: (id: string, decision: Decision, reason?: string) =>
    api.post<{ job: Job }>(`/jobs/${encodeURIComponent(id)}/reply`, { decision, ...(reason ? { reason } : {}) }),
  cancel: (id: string) => api.post<{ job: Job }>(`/jobs/${encodeURIComponent(id)}/cancel`),
  conversations: (offset: number) =>
    api.get<{ conversations: ConversationSummary[]; total: number; has_more: boolean }>(
      `/conversations?limit=${CONVERSATIONS_PAGE}&offset=${offset}`,
    ),
  conversation: (id: string) => api.get<{ conversation: Conversation }>(`/conversations/${encodeURIComponent(id)}`),
  addMessage: (id: string, message: string) => api.post(`/conversations/${encodeURIComponent(id)}/manual`, { message }),
  agents: () => api.get<{ agents: Agent[] }>('/agents'),
  agent: (id: string) => api.get<{ agent: Agent; voices: VoiceOption[]; default_voice: string }>(`/agents/${encodeURIComponent(id)}`),
  updateAgent: (id: string, change: AgentChange) => api.patch<{ agent: Agent }>(`/agents/${encodeURIComponent(id)}`, change),
  testAgentMessage: (id: string) => api.post<TestMessage>(`/agents/${encodeURIComponent(id)}/test-message`),
};
