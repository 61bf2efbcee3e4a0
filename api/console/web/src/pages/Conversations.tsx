// Conversations of the Agent API: the list, and one conversation (?id=) with its messages and, for
// members, a manual message signed with their name.
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Badge, Button, Group, Stack, Textarea, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { jobsApi, type Conversation } from '../api/jobs';
import { ListTable, when } from '../components/ListTable';
import { Loaded, useLoad, usePoll } from '../components/Loaded';
import { Messages } from '../components/Messages';
import { useAction } from '../components/useAction';
import { BackTo, listOrItem } from '../components/ListOrItem';
import { useSignedIn } from '../session';
import { StatusBadge } from './Jobs';

function ConversationList() {
  useDocumentTitle('Conversations · Switchboard');
  const load = useLoad(() => jobsApi.conversations(), 'all');
  return (
    <>
      <Title order={1} mb="md">
        Conversations
      </Title>
      <Loaded load={load} what="conversations">
        {({ conversations, total }) => (
          <ListTable
            rows={conversations}
            rowKey={(c) => c.id}
            caption={`${total} conversation${total === 1 ? '' : 's'} over the Agent API`}
            empty="No conversations."
            columns={[
              { label: 'Conversation', cell: (c) => <Anchor component={Link} to={`/conversations?id=${c.id}`}>{c.id}</Anchor> },
              { label: 'Status', cell: (c) => c.status },
              { label: 'Contact', cell: (c) => c.contactId ?? '—' },
              { label: 'Started', cell: (c) => when(c.createdAt) },
            ]}
          />
        )}
      </Loaded>
    </>
  );
}

function ConversationPage({ id }: { id: string }) {
  useDocumentTitle('Conversation · Switchboard');
  const load = useLoad(() => jobsApi.conversation(id), id);
  usePoll(load.reload, load.data?.conversation.status === 'active', 5000);
  return (
    <>
      <BackTo to="/conversations" label="All conversations" />
      <Title order={1} my="md">
        Conversation
      </Title>
      <Loaded load={load} what="the conversation">
        {({ conversation }) => <ConversationDetail conversation={conversation} onChange={load.reload} />}
      </Loaded>
    </>
  );
}

function ConversationDetail({ conversation: c, onChange }: { conversation: Conversation; onChange(): Promise<void> }) {
  const { user } = useSignedIn();
  return (
    <Stack>
      <Group>
        <Badge variant="filled" color="gray.8">
          {c.status}
        </Badge>
        {c.jobId && c.jobStatus && (
          <Anchor component={Link} to={`/jobs?id=${c.jobId}`}>
            Latest job <StatusBadge status={c.jobStatus} />
          </Anchor>
        )}
      </Group>
      <Messages messages={c.messages} />
      {user.role !== 'viewer' && c.status === 'active' && <ManualMessage id={c.conversationId} onChange={onChange} />}
    </Stack>
  );
}

function ManualMessage({ id, onChange }: { id: string; onChange(): Promise<void> }) {
  const [message, setMessage] = useState('');
  const { busy, error, run } = useAction(onChange);
  const send = async () => {
    if (await run(() => jobsApi.addMessage(id, message))) setMessage('');
  };
  return (
    <Stack gap="xs" component="section" aria-label="Add a manual message">
      {error && (
        <Alert role="alert" color="red">
          {error}
        </Alert>
      )}
      <Textarea label="Manual message (under your name; the agent sees it next turn)" value={message} onChange={(e) => setMessage(e.currentTarget.value)} maxLength={32000} autosize minRows={2} />
      <Group>
        <Button loading={busy} disabled={!message.trim()} onClick={send}>
          Add message
        </Button>
      </Group>
    </Stack>
  );
}

export const Conversations = listOrItem(ConversationList, ConversationPage);
