// Conversations: the account's call conversations (the Agent API's `api` ones are not listed, as its spec
// says; a job's opens from its job), and one (?id=) with its messages and, for an API one, a member's manual message.
import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Badge, Button, Group, Stack, Textarea, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { mayAct } from '../api';
import { CONVERSATIONS_PAGE, jobsApi, type Conversation } from '../api/jobs';
import { DataTable, when } from '../components/DataTable';
import { Loaded, useLoaded, usePoll } from '../components/Loaded';
import { Messages } from '../components/Messages';
import { useChange } from '../components/Change';
import { BackTo, listOrItem } from '../components/ListOrItem';
import { useSignedIn } from '../session';
import { StatusBadge } from './Jobs';

function ConversationList() {
  useDocumentTitle('Conversations · Switchboard');
  const [offset, setOffset] = useState(0);
  const load = useLoaded(() => jobsApi.conversations(offset), offset);
  return (
    <>
      <Title order={1} mb="md">
        Conversations
      </Title>
      <Loaded load={load} what="conversations">
        {({ conversations, total, has_more }) => (
          <>
            <DataTable
              rows={conversations}
              rowKey={(c) => c.id}
              caption={`${total} conversation${total === 1 ? '' : 's'} on calls, newest first`}
              empty="No conversations on calls yet. A job's conversation opens from its job."
              columns={[
                {
                  label: 'Conversation',
                  cell: (c) => (
                    <Anchor component={Link} to={`/conversations?id=${c.id}`}>
                      {c.id}
                    </Anchor>
                  ),
                },
                { label: 'Channel', cell: (c) => c.channel },
                { label: 'Status', cell: (c) => c.status },
                {
                  label: 'Call',
                  cell: (c) =>
                    c.callId ? (
                      <Anchor component={Link} to={`/calls/${c.callId}`}>
                        {c.callId}
                      </Anchor>
                    ) : (
                      '—'
                    ),
                },
                { label: 'Started', cell: (c) => when(c.createdAt) },
              ]}
            />
            <Group>
              <Button variant="default" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - CONVERSATIONS_PAGE))}>
                Newer
              </Button>
              <Button variant="default" disabled={!has_more} onClick={() => setOffset(offset + CONVERSATIONS_PAGE)}>
                Older
              </Button>
            </Group>
          </>
        )}
      </Loaded>
    </>
  );
}

function ConversationPage({ id }: { id: string }) {
  useDocumentTitle('Conversation · Switchboard');
  const load = useLoaded(() => jobsApi.conversation(id), id);
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
      {mayAct(user.role, 'member') && c.channel === 'api' && c.status === 'active' && (
        <ManualMessage id={c.conversationId} onChange={onChange} />
      )}
    </Stack>
  );
}

function ManualMessage({ id, onChange }: { id: string; onChange(): Promise<void> }) {
  const [message, setMessage] = useState('');
  const { busy, alert, run } = useChange(onChange);
  const send = async () => {
    if (await run(() => jobsApi.addMessage(id, message))) setMessage('');
  };
  return (
    <Stack gap="xs" component="section" aria-label="Add a manual message">
      {alert}
      <Textarea
        label="Manual message (under your name; the agent sees it next turn)"
        value={message}
        onChange={(e) => setMessage(e.currentTarget.value)}
        maxLength={32000}
        autosize
        minRows={2}
      />
      <Group>
        <Button loading={busy} disabled={!message.trim()} onClick={send}>
          Add message
        </Button>
      </Group>
    </Stack>
  );
}

export const Conversations = listOrItem(ConversationList, ConversationPage);
