// Agents: the list, and one agent (?id=) whose prompt, model, tools, handoff roster, outcomes, voice,
// verification and message webhook members change (and send that webhook a test message); a tool's secret can be set
// or replaced, never read back.
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Fieldset,
  Group,
  NativeSelect,
  PasswordInput,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { mayAct } from '../api';
import { jobsApi, type Agent, type AgentChange, type AgentTool, type VoiceOption } from '../api/jobs';
import { DataTable, when } from '../components/DataTable';
import { Loaded, useLoaded } from '../components/Loaded';
import { useSignedIn } from '../session';
import { BackTo, listOrItem } from '../components/ListOrItem';
import { TestMessageCard } from '../components/TestMessageCard';

function AgentList() {
  useDocumentTitle('Agents · Switchboard');
  const load = useLoaded(() => jobsApi.agents());
  return (
    <>
      <Title order={1} mb="md">
        Agents
      </Title>
      <Loaded load={load} what="agents">
        {({ agents }) => (
          <DataTable
            rows={agents}
            rowKey={(a) => a.id}
            caption={`${agents.length} agent${agents.length === 1 ? '' : 's'}`}
            empty="No agents."
            columns={[
              {
                label: 'Name',
                cell: (a) => (
                  <Anchor component={Link} to={`/agents?id=${a.id}`}>
                    {a.name}
                  </Anchor>
                ),
              },
              { label: 'Model', cell: (a) => a.model ?? 'default' },
              { label: 'Tools', cell: (a) => a.tools.map((t) => t.name).join(', ') || '—' },
              { label: 'Changed', cell: (a) => when(a.updatedAt) },
            ]}
          />
        )}
      </Loaded>
    </>
  );
}

function AgentPage({ id }: { id: string }) {
  useDocumentTitle('Agent · Switchboard');
  const { user } = useSignedIn();
  const load = useLoaded(() => jobsApi.agent(id), id);
  // Kept here: the form starts afresh from each saved agent, and "Saved" must outlive it.
  const [saved, setSaved] = useState(false);
  const onSaved = async () => {
    setSaved(true);
    await load.reload();
  };
  return (
    <>
      <BackTo to="/agents" label="All agents" />
      <Loaded load={load} what="the agent">
        {({ agent, voices, default_voice }) => (
          <Stack>
            <AgentForm
              key={agent.updatedAt}
              agent={agent}
              voices={{ options: voices, default: default_voice }}
              saved={saved}
              setSaved={setSaved}
              onSaved={onSaved}
            />
            {mayAct(user.role, 'member') && (
              <TestMessageCard
                to={agent.messageWebhookUrl}
                title="Test the agent's message webhook"
                headingId="agent-webhook-test"
                send={() => jobsApi.testAgentMessage(agent.id)}
              />
            )}
          </Stack>
        )}
      </Loaded>
    </>
  );
}

/** What each auth type's secret is made of, as the Agent API's authConfig names it. */
const SECRET_FIELDS: Record<AgentTool['authType'], { key: string; label: string; secret: boolean }[]> = {
  none: [],
  basic: [
    { key: 'username', label: 'Username', secret: false },
    { key: 'password', label: 'Password', secret: true },
  ],
  apikey: [
    { key: 'headerName', label: 'Header name', secret: false },
    { key: 'apiKey', label: 'API key', secret: true },
  ],
  bearer: [{ key: 'token', label: 'Token', secret: true }],
};

const json = (v: unknown) => JSON.stringify(v, null, 2);

/** The form's fields as text, from the agent as read. */
const formOf = (agent: Agent) => ({
  name: agent.name,
  systemPrompt: agent.systemPrompt,
  model: agent.model ?? '',
  outcomes: agent.outcomes.join(', '),
  messageWebhookUrl: agent.messageWebhookUrl ?? '',
  voice: agent.voice ?? '',
  handoffEnabled: agent.handoffEnabled,
  verificationRequired: agent.verification?.required ?? false,
  handoffRoster: json(agent.handoffRoster),
  tools: json(agent.tools),
});

function AgentForm({
  agent,
  voices,
  saved,
  setSaved,
  onSaved,
}: {
  agent: Agent;
  voices: { options: VoiceOption[]; default: string };
  saved: boolean;
  setSaved(saved: boolean): void;
  onSaved(): Promise<void>;
}) {
  const { user } = useSignedIn();
  const readOnly = !mayAct(user.role, 'member');
  const [original] = useState(() => formOf(agent));
  const [form, setForm] = useState(original);
  const [secrets, setSecrets] = useState<Record<string, Record<string, string>>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const set = (key: keyof typeof form) => (value: string | boolean) => setForm((f) => ({ ...f, [key]: value }));

  /** Only the fields the user changed, as `switchboard admin agent update` sends only its flags. */
  const change = (): AgentChange => {
    const out: AgentChange = {};
    const changed = (key: keyof typeof form) => form[key] !== original[key];
    if (changed('name')) out.name = form.name;
    if (changed('systemPrompt')) out.systemPrompt = form.systemPrompt;
    if (changed('model')) out.model = form.model.trim() || null;
    if (changed('outcomes'))
      out.outcomes = form.outcomes
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean);
    // '' clears it, as the CLI's flag does.
    if (changed('messageWebhookUrl')) out.messageWebhookUrl = form.messageWebhookUrl.trim();
    if (changed('voice')) out.voice = form.voice || null;
    if (changed('handoffEnabled')) out.handoffEnabled = form.handoffEnabled;
    if (changed('verificationRequired'))
      out.verification = form.verificationRequired ? { required: true, method: 'passcode', deliver_to: 'webhook' } : null;
    if (changed('handoffRoster')) out.handoffRoster = JSON.parse(form.handoffRoster);
    const withSecrets = (JSON.parse(form.tools) as AgentTool[]).map((t) => {
      const given = secrets[t.name];
      return given && Object.values(given).some(Boolean) ? { ...t, authConfig: given } : t;
    });
    if (changed('tools') || withSecrets.some((t) => 'authConfig' in t)) out.tools = withSecrets;
    return out;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      const body = change();
      await jobsApi.updateAgent(agent.id, body);
      await onSaved();
    } catch (err) {
      setError(err instanceof SyntaxError ? `Tools and handoff roster must be JSON: ${err.message}` : (err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  let tools: AgentTool[] = [];
  try {
    tools = JSON.parse(form.tools);
  } catch {
    // Shown as an error when saving.
  }
  return (
    <form onSubmit={submit} aria-labelledby="agent-title">
      <Stack>
        <Title order={1} my="md" id="agent-title">
          {agent.name}
        </Title>
        {error && (
          <Alert role="alert" color="red">
            {error}
          </Alert>
        )}
        {saved && (
          <Alert role="status" color="green">
            Saved
          </Alert>
        )}
        <TextInput label="Name" value={form.name} onChange={(e) => set('name')(e.currentTarget.value)} readOnly={readOnly} />
        <Textarea
          label="System prompt"
          value={form.systemPrompt}
          onChange={(e) => set('systemPrompt')(e.currentTarget.value)}
          readOnly={readOnly}
          autosize
          minRows={4}
          maxRows={16}
        />
        <TextInput
          label="Model (empty: the deployment's default)"
          value={form.model}
          onChange={(e) => set('model')(e.currentTarget.value)}
          readOnly={readOnly}
        />
        <TextInput
          label="Outcomes (comma-separated)"
          value={form.outcomes}
          onChange={(e) => set('outcomes')(e.currentTarget.value)}
          readOnly={readOnly}
        />
        <TextInput
          label="Message webhook URL (empty: the account's)"
          value={form.messageWebhookUrl}
          onChange={(e) => set('messageWebhookUrl')(e.currentTarget.value)}
          readOnly={readOnly}
        />
        <NativeSelect
          label="Voice on calls"
          value={form.voice}
          onChange={(e) => set('voice')(e.currentTarget.value)}
          disabled={readOnly}
          data={[
            {
              value: '',
              label: `The deployment's default (${voices.options.find((v) => v.id === voices.default)?.name ?? voices.default})`,
            },
            ...voices.options.map((v) => ({ value: v.id, label: `${v.name} · ${v.language}` })),
          ]}
        />
        <Switch
          label="Handoff enabled"
          checked={form.handoffEnabled}
          onChange={(e) => set('handoffEnabled')(e.currentTarget.checked)}
          disabled={readOnly}
        />
        <Switch
          label="Require a verified contact"
          aria-describedby="verification-help"
          checked={form.verificationRequired}
          onChange={(e) => set('verificationRequired')(e.currentTarget.checked)}
          disabled={readOnly}
        />
        <Text size="sm" id="verification-help">
          In Agent API conversations, until the contact types the passcode sent to your events address or your backend verifies them, this
          agent uses no tools and no memory of them. Jobs are not held back.
        </Text>
        <Textarea
          label="Handoff roster (JSON)"
          value={form.handoffRoster}
          onChange={(e) => set('handoffRoster')(e.currentTarget.value)}
          readOnly={readOnly}
          autosize
          minRows={2}
          ff="monospace"
        />
        <Textarea
          label="Tools (JSON, without secrets)"
          value={form.tools}
          onChange={(e) => set('tools')(e.currentTarget.value)}
          readOnly={readOnly}
          autosize
          minRows={3}
          maxRows={20}
          ff="monospace"
        />
        {!readOnly &&
          tools
            .filter((t) => SECRET_FIELDS[t.authType]?.length)
            .map((t) => (
              <Card key={t.name} withBorder padding="sm">
                <Fieldset legend={`Secret of ${t.name}`} variant="unstyled">
                  <Text size="sm" mb="xs">
                    Stored and never shown. Fill these in only to set or replace it.
                  </Text>
                  <Group grow align="flex-start">
                    {SECRET_FIELDS[t.authType].map((f) => {
                      const Input = f.secret ? PasswordInput : TextInput;
                      return (
                        <Input
                          key={f.key}
                          label={`${f.label} of ${t.name}`}
                          autoComplete="off"
                          value={secrets[t.name]?.[f.key] ?? ''}
                          onChange={(e) => setSecrets((s) => ({ ...s, [t.name]: { ...s[t.name], [f.key]: e.currentTarget.value } }))}
                        />
                      );
                    })}
                  </Group>
                </Fieldset>
              </Card>
            ))}
        {!readOnly && (
          <Group>
            <Button type="submit" loading={busy}>
              Save agent
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

export const Agents = listOrItem(AgentList, AgentPage);
