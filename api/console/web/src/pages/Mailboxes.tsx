// Mailboxes: the list (members make one), and one mailbox (?id=) with its voicemails newest first,
// each with its recording to play; members mark a message read or archive it.
import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Group, NativeSelect, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { mayAct } from '../api';
import { MESSAGE_STATUSES, mailboxesApi, type MessageStatus, type VoiceMessage } from '../api/mailboxes';
import { useChange } from '../components/Change';
import { DataTable, when } from '../components/DataTable';
import { BackTo, listOrItem } from '../components/ListOrItem';
import { Loaded, useLoaded } from '../components/Loaded';
import { NewItemForm } from '../components/NewItemForm';
import { useSignedIn } from '../session';

const STATUS_LABEL: Record<MessageStatus, string> = { new: 'New', read: 'Read', archived: 'Archived' };

function MailboxList() {
  useDocumentTitle('Mailboxes · Switchboard');
  const { user } = useSignedIn();
  const load = useLoaded(mailboxesApi.list);
  return (
    <>
      <Title order={1} mb="md">
        Mailboxes
      </Title>
      {mayAct(user.role, 'member') && <NewMailbox onMade={load.reload} />}
      <Loaded load={load} what="the mailboxes">
        {(mailboxes) => (
          <DataTable
            caption="The account's mailboxes, where callers leave voicemails"
            rows={mailboxes}
            rowKey={(m) => m.id}
            empty="No mailboxes yet."
            columns={[
              {
                label: 'Name',
                cell: (m) => (
                  <Anchor component={Link} to={`/mailboxes?id=${encodeURIComponent(m.id)}`}>
                    {m.name}
                  </Anchor>
                ),
              },
              { label: 'New messages', cell: (m) => m.new_messages, numeric: true },
              { label: 'Greeting', cell: (m) => m.greeting },
              { label: 'Created', cell: (m) => when(m.created_at) },
            ]}
          />
        )}
      </Loaded>
    </>
  );
}

function NewMailbox({ onMade }: { onMade(): Promise<void> }) {
  const change = useChange(onMade);
  const [name, setName] = useState('');
  const [greeting, setGreeting] = useState('');
  const create = () =>
    void change
      .run(() => mailboxesApi.create({ name, greeting }))
      .then((made) => {
        if (!made) return;
        setName('');
        setGreeting('');
      });
  return (
    <NewItemForm title="New mailbox" submit="Create mailbox" change={change} onSubmit={create}>
      <TextInput label="Name" required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <TextInput label="Greeting" required maxLength={1000} value={greeting} onChange={(e) => setGreeting(e.currentTarget.value)} />
    </NewItemForm>
  );
}

function MailboxPage({ id }: { id: string }) {
  useDocumentTitle('Mailbox · Switchboard');
  const [status, setStatus] = useState<MessageStatus | ''>('');
  const [cursor, setCursor] = useState<string>();
  const mailbox = useLoaded(() => mailboxesApi.get(id), id);
  const messages = useLoaded(() => mailboxesApi.messages(id, { status: status || undefined, cursor }), `${id}|${status}|${cursor}`);
  return (
    <>
      <BackTo to="/mailboxes" label="All mailboxes" />
      <Loaded load={mailbox} what="the mailbox">
        {(m) => (
          <>
            <Title order={1} my="md">
              {m.name}
            </Title>
            <Text mb="md">Callers hear: “{m.greeting}”</Text>
          </>
        )}
      </Loaded>
      <NativeSelect
        label="Show"
        maw={280}
        value={status}
        onChange={(e) => {
          setStatus(e.currentTarget.value as MessageStatus | '');
          setCursor(undefined);
        }}
        data={[{ value: '', label: 'All messages' }, ...MESSAGE_STATUSES.map((s) => ({ value: s, label: STATUS_LABEL[s] }))]}
      />
      <Loaded load={messages} what="the messages">
        {(page) => (
          <>
            <MessageTable mailboxId={id} messages={page.data} reload={messages.reload} />
            <Group>
              {cursor && (
                <Button variant="default" onClick={() => setCursor(undefined)}>
                  Newest messages
                </Button>
              )}
              {page.next_cursor && (
                <Button variant="default" onClick={() => setCursor(page.next_cursor ?? undefined)}>
                  Older messages
                </Button>
              )}
            </Group>
          </>
        )}
      </Loaded>
    </>
  );
}

function MessageTable({ mailboxId, messages, reload }: { mailboxId: string; messages: VoiceMessage[]; reload(): Promise<void> }) {
  const { user } = useSignedIn();
  const change = useChange(reload);
  const move = (m: VoiceMessage, to: MessageStatus, label: string) => (
    <Button
      size="xs"
      variant="default"
      disabled={change.busy}
      aria-label={`${label}: message from ${m.caller} at ${when(m.created_at)}`}
      onClick={() => void change.run(() => mailboxesApi.setStatus(mailboxId, m.id, to))}
    >
      {label}
    </Button>
  );
  return (
    <>
      {change.alert}
      <DataTable
        caption="Voicemails, newest first"
        rows={messages}
        rowKey={(m) => m.id}
        empty="No messages."
        columns={[
          { label: 'Caller', cell: (m) => m.caller },
          { label: 'Received', cell: (m) => when(m.created_at) },
          { label: 'Length', cell: (m) => (m.duration_sec == null ? '—' : `${m.duration_sec} s`), numeric: true },
          {
            label: 'Message',
            cell: (m) => (
              <Text size="sm" miw={160}>
                {m.summary || '—'}
              </Text>
            ),
          },
          {
            label: 'Status',
            // New ones stand out, as unread mail does.
            cell: (m) => (
              <Text size="sm" fw={m.status === 'new' ? 700 : 400}>
                {STATUS_LABEL[m.status]}
              </Text>
            ),
          },
          {
            label: 'Recording',
            cell: (m) => (
              // biome-ignore lint/a11y/useMediaCaption: the message's words are in its row.
              <audio
                controls
                preload="none"
                style={{ width: 240 }}
                src={mailboxesApi.recordingUrl(mailboxId, m.id)}
                aria-label={`Recording from ${m.caller} at ${when(m.created_at)}`}
              />
            ),
          },
          ...(mayAct(user.role, 'member')
            ? [
                {
                  label: 'Change',
                  cell: (m: VoiceMessage) => (
                    <Group gap="xs">
                      {m.status === 'new' && move(m, 'read', 'Mark read')}
                      {m.status !== 'archived' && move(m, 'archived', 'Archive')}
                    </Group>
                  ),
                },
              ]
            : []),
        ]}
      />
    </>
  );
}

export const Mailboxes = listOrItem(MailboxList, MailboxPage);
