// The columns of the rows that a job run's closing round trip reads back, named rather than `*`.
// Those statements are prepared once per connection (pkg/db/locks.ts), and a prepared `*` fails
// ("cached plan must not change result type") on every connection of a running process once a
// migration adds a column to its table. A test checks these lists against the schema, so a
// migration that adds a column adds it here too. (tenants.credit_balance is unused since migration
// 006 and kept for one release; the balance is credits.ts's balanceOf.)
export const COLUMNS = {
  triggers: [
    'id', 'seq', 'tenant_id', 'conversation_id', 'agent_id', 'status', 'trigger_type', 'task', 'input_message', 'success_criteria',
    'business_keys', 'metadata', 'event_type', 'idempotency_key', 'approval_id', 'approval_url', 'wait_payload', 'human_reply',
    'result_summary', 'error_message', 'attempt_count', 'max_attempts', 'next_run_at', 'waiting_reason', 'waiting_since', 'expires_at',
    'last_run_at', 'started_at', 'completed_at', 'created_at', 'updated_at', 'due_at', 'lease_owner', 'lease_until',
  ],
  tenants: [
    'id', 'name', 'timezone', 'features', 'max_pending_jobs', 'min_credits', 'billing', 'requests_per_minute', 'credit_balance', 'created_at', 'updated_at',
    'events_url', 'message_webhook_url', 'webhook_secret', 'max_concurrent_calls', 'default_agent_id', 'country',
  ],
  conversations: [
    'id', 'tenant_id', 'agent_id', 'contact_id', 'channel', 'status', 'metadata', 'custom_system_message', 'custom_tools', 'memory_scope',
    'created_at', 'updated_at', 'ended_at',
  ],
  agents: ['id', 'tenant_id', 'is_public', 'name', 'system_prompt', 'model', 'tools', 'handoff_enabled', 'handoff_roster', 'created_at', 'updated_at'],
  messages: ['id', 'seq', 'conversation_id', 'role', 'content', 'metadata', 'created_at'],
} as const;

/** `table`'s columns as a select list, each qualified by `alias` if given. */
export const columnsOf = (table: keyof typeof COLUMNS, alias?: string): string =>
  COLUMNS[table].map((c) => (alias ? `${alias}.${c}` : c)).join(', ');
