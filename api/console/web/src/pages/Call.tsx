// One call: its status, result, transcript as it grows, timeline and recordings; members steer it and hang it up.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Alert, Anchor, Button, Card, Group, List, Loader, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { ApiError, mayAct } from '../api';
import { getCall, hangUpCall, LIVE_STATUSES, recordingUrl, steerCall, watchCalls, type CallDetail } from '../api/calls';
import { useSignedIn } from '../session';
import { CallStatus } from './Calls';

export function CallPage() {
  const { id = '' } = useParams();
  useDocumentTitle(`Call ${id} · Switchboard`);
  const { user } = useSignedIn();
  const [detail, setDetail] = useState<CallDetail>();
  const [error, setError] = useState<string>();

  const load = useCallback(async () => {
    try {
      setDetail(await getCall(id));
      setError(undefined);
    } catch (err) {
      setError(err instanceof ApiError && err.status === 404 ? 'There is no such call in this account.' : (err as Error).message);
    }
  }, [id]);

  useEffect(() => {
    void load();
    // Read the call again when it changes (its timeline is the server's to compose).
    return watchCalls((event) => {
      if (event.type === 'resync' || (event.type === 'call' && event.call.id === id)) void load();
    });
  }, [id, load]);

  const live = detail !== undefined && LIVE_STATUSES.includes(detail.call.status);
  return (
    <>
      <Anchor component={Link} to="/calls" mb="sm" display="inline-block">
        All calls
      </Anchor>
      <Title order={1} mb="md" style={{ overflowWrap: 'anywhere' }}>
        Call {id}
      </Title>
      {error && (
        <Alert role="alert" color="red" title="Could not load the call" mb="md">
          {error}
        </Alert>
      )}
      {!detail && !error && <Loader aria-label="Loading the call" />}
      {detail && (
        <Stack>
          <CallFacts detail={detail} />
          {live && mayAct(user.role, 'member') && <CallControls id={id} onDone={load} />}
          <Transcript detail={detail} />
          <Result detail={detail} />
          <Recordings detail={detail} />
          <Timeline detail={detail} />
        </Stack>
      )}
    </>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  const headingId = `call-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Card withBorder component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId} mb="xs">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function CallFacts({ detail: { call } }: { detail: CallDetail }) {
  const facts: [string, React.ReactNode][] = [
    ['Status', <CallStatus key="status" status={call.status} />],
    ['Direction', call.direction],
    ['From', call.from],
    ['To', call.to],
    ['Placed', new Date(call.created_at).toLocaleString()],
    ['Duration', `${call.duration_sec} s`],
    ['Hangup cause', call.hangup_cause ?? '—'],
    ['Agent', call.ai?.agent_id ?? '—'],
  ];
  return (
    <Section title="Call">
      <SimpleGrid cols={{ base: 2, sm: 4 }} component="dl" m={0}>
        {facts.map(([name, value]) => (
          <div key={name}>
            <Text component="dt" size="sm" fw={700}>
              {name}
            </Text>
            <Text component="dd" m={0} data-fact={name} style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </div>
        ))}
      </SimpleGrid>
    </Section>
  );
}

function CallControls({ id, onDone }: { id: string; onDone(): Promise<void> }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const act = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      await onDone();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const steer = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '').trim() || undefined;
    void act(async () => {
      await steerCall(id, { say: text('say'), instruction: text('instruction') });
      form.reset();
    });
  };
  return (
    <Section title="Steer the call">
      <form onSubmit={steer}>
        <Stack gap="sm">
          <Text size="sm">What to say is spoken next; an instruction joins the agent&apos;s context before its next turn.</Text>
          <TextInput label="Say" name="say" maxLength={1000} />
          <TextInput label="Instruction" name="instruction" maxLength={2000} />
          {error && (
            <Text role="alert" c="red.9">
              {error}
            </Text>
          )}
          <Group>
            <Button type="submit" loading={busy}>
              Steer
            </Button>
            <Button color="red.8" loading={busy} onClick={() => void act(() => hangUpCall(id))}>
              Hang up
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function Transcript({ detail: { result } }: { detail: CallDetail }) {
  return (
    <Section title="Transcript">
      {result.transcript.length === 0 ? (
        <Text>Nothing said yet.</Text>
      ) : (
        <List listStyleType="none" spacing="xs" aria-live="polite" aria-label="Transcript">
          {result.transcript.map((item, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a transcript only grows, so a line's place is its identity.
            <List.Item key={i}>
              <Text span fw={700}>
                {item.speaker === 'agent' ? 'Agent' : 'Caller'}:
              </Text>{' '}
              {item.text}
            </List.Item>
          ))}
        </List>
      )}
    </Section>
  );
}

function Result({ detail: { result } }: { detail: CallDetail }) {
  if (!result.final) return null;
  return (
    <Section title="Result">
      <Text>
        <Text span fw={700}>
          Outcome:
        </Text>{' '}
        {result.outcome}
      </Text>
      {result.summary && <Text>{result.summary}</Text>}
      {result.result?.note && <Text>Note: {result.result.note}</Text>}
      {result.result && Object.keys(result.result.answers).length > 0 && (
        <List>
          {Object.entries(result.result.answers).map(([key, value]) => (
            <List.Item key={key}>
              {key}: {typeof value === 'string' ? value : JSON.stringify(value)}
            </List.Item>
          ))}
        </List>
      )}
    </Section>
  );
}

function Recordings({ detail: { call, messages } }: { detail: CallDetail }) {
  const voicemails = messages.filter((m) => m.kind === 'voicemail');
  if (voicemails.length === 0) return null;
  return (
    <Section title="Recordings">
      {voicemails.map((m) => (
        <Stack key={m.id} gap={4}>
          <Text>{m.summary || 'Voicemail'}</Text>
          {/* biome-ignore lint/a11y/useMediaCaption: the voicemail's words are written beside it. */}
          <audio controls preload="none" src={recordingUrl(call.id, m.id)} aria-label={`Voicemail ${m.id}`} />
        </Stack>
      ))}
    </Section>
  );
}

function Timeline({ detail: { timeline } }: { detail: CallDetail }) {
  return (
    <Section title="Timeline">
      <List spacing={4} aria-label="Timeline">
        {timeline.map((entry, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a timeline only grows, so an entry's place is its identity.
          <List.Item key={i}>
            <Text span size="sm" fw={700}>
              {new Date(entry.at).toLocaleTimeString()}
            </Text>{' '}
            {entry.detail}
          </List.Item>
        ))}
      </List>
    </Section>
  );
}
