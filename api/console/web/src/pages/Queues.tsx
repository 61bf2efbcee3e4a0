// Queues: each queue's members, whether each is available and on a call now; members switch one
// member's availability, add and remove members, and make and delete queues.
import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Card, Group, Modal, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { mayAct } from '../api';
import { membersOf, queuesApi, type Queue, type QueueInput } from '../api/queues';
import { DangerButton, InlineForm, useChange } from '../components/Change';
import { DataTable } from '../components/DataTable';
import { DialogForm } from '../components/DialogForm';
import { Loaded, useLoaded, usePoll } from '../components/Loaded';
import { NewItemForm } from '../components/NewItemForm';
import { useSignedIn } from '../session';

export function Queues() {
  useDocumentTitle('Queues · Switchboard');
  const { user } = useSignedIn();
  const canChange = mayAct(user.role, 'member');
  const load = useLoaded(queuesApi.list);
  // Who is on a call changes by itself.
  usePoll(load.reload, true, 5000);
  return (
    <>
      <Title order={1} mb="md">
        Queues
      </Title>
      {canChange && <NewQueue onMade={load.reload} />}
      <Loaded load={load} what="the queues">
        {(queues) =>
          queues.length === 0 ? (
            <Text my="md">No queues yet.</Text>
          ) : (
            <Stack>
              {queues.map((q) => (
                <QueueCard key={q.id} queue={q} canChange={canChange} reload={load.reload} />
              ))}
            </Stack>
          )
        }
      </Loaded>
    </>
  );
}

/** A queue's own settings as form fields (empty, or `queue`'s), and the Voice API input they make. */
function useQueueSettings(queue?: Queue) {
  const [name, setName] = useState(queue?.name ?? '');
  const [maxWait, setMaxWait] = useState(String(queue?.max_wait_sec ?? 300));
  const [hold, setHold] = useState(queue?.hold_message ?? '');
  const fields = (
    <>
      <TextInput label="Name" required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <TextInput
        label="Longest wait (seconds)"
        type="number"
        min={10}
        max={3600}
        required
        value={maxWait}
        onChange={(e) => setMaxWait(e.currentTarget.value)}
      />
      <TextInput label="Hold message" maxLength={1000} value={hold} onChange={(e) => setHold(e.currentTarget.value)} />
    </>
  );
  const clear = () => {
    setName('');
    setMaxWait('300');
    setHold('');
  };
  return { fields, input: { name, max_wait_sec: Number(maxWait), hold_message: hold.trim() ? hold : null }, clear };
}

function NewQueue({ onMade }: { onMade(): Promise<void> }) {
  const change = useChange(onMade);
  const settings = useQueueSettings();
  const create = () => void change.run(() => queuesApi.create(settings.input)).then((made) => made && settings.clear());
  return (
    <NewItemForm title="New queue" submit="Create queue" change={change} onSubmit={create}>
      {settings.fields}
    </NewItemForm>
  );
}

function EditQueue({ queue, onClose, reload }: { queue: Queue; onClose(): void; reload(): Promise<void> }) {
  const settings = useQueueSettings(queue);
  const change = useChange(reload);
  const save = () => void change.run(() => queuesApi.update(queue.id, settings.input)).then((saved) => saved && onClose());
  return (
    <Modal opened onClose={onClose} title={`Edit ${queue.name}`} closeButtonProps={{ 'aria-label': 'Close' }} lockScroll={false}>
      <DialogForm onSubmit={save} onCancel={onClose} busy={change.busy} alert={change.alert} submit="Save">
        {settings.fields}
      </DialogForm>
    </Modal>
  );
}

function QueueCard({ queue, canChange, reload }: { queue: Queue; canChange: boolean; reload(): Promise<void> }) {
  const change = useChange(reload);
  const headingId = `queue-${queue.id}`;
  const [editing, setEditing] = useState(false);
  const setMembers = (members: NonNullable<QueueInput['members']>) => change.run(() => queuesApi.update(queue.id, { members }));
  return (
    <Card withBorder component="section" aria-labelledby={headingId}>
      <Group justify="space-between">
        <Title order={2} size="h4" id={headingId}>
          {queue.name}
        </Title>
        {canChange && (
          <Group gap="xs">
            <Button size="xs" variant="default" aria-label={`Edit queue ${queue.name}`} onClick={() => setEditing(true)}>
              Edit
            </Button>
            <DangerButton
              action="Delete"
              target={`queue ${queue.name}`}
              onClick={() => void change.run(() => queuesApi.remove(queue.id))}
            />
          </Group>
        )}
      </Group>
      <Text size="sm">
        Callers wait at most {queue.max_wait_sec} s.{queue.hold_message ? ` On hold they hear: “${queue.hold_message}”` : ''}
      </Text>
      {change.alert}
      <DataTable
        caption={`Members of ${queue.name}`}
        rows={queue.members}
        rowKey={(m) => m.id}
        empty="No members: nobody answers this queue's callers."
        columns={[
          { label: 'Name', cell: (m) => m.name },
          { label: 'Phone', cell: (m) => m.phone },
          {
            label: 'Available',
            cell: (m) =>
              canChange ? (
                <Switch
                  checked={m.available}
                  disabled={change.busy}
                  aria-label={`${m.name} available`}
                  onChange={(e) => void change.run(() => queuesApi.setAvailable(queue.id, m.id, e.currentTarget.checked))}
                />
              ) : m.available ? (
                'Yes'
              ) : (
                'No'
              ),
          },
          {
            label: 'Now',
            cell: (m) =>
              m.busy_call_id ? (
                <Anchor component={Link} to={`/calls/${m.busy_call_id}`}>
                  On a call
                </Anchor>
              ) : (
                'Free'
              ),
          },
          ...(canChange
            ? [
                {
                  label: 'Remove',
                  cell: (m: Queue['members'][number]) => (
                    <DangerButton
                      action="Remove"
                      target={m.name}
                      onClick={() => void setMembers(membersOf(queue).filter((other) => other.id !== m.id))}
                    />
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing && <EditQueue queue={queue} onClose={() => setEditing(false)} reload={reload} />}
      {canChange && <AddMember onAdd={(member) => setMembers([...membersOf(queue), { ...member, available: true }])} />}
    </Card>
  );
}

function AddMember({ onAdd }: { onAdd(member: { id?: string; name: string; phone: string }): Promise<boolean> }) {
  const [member, setMember] = useState({ id: '', name: '', phone: '' });
  const field = (key: keyof typeof member, label: string, max: number, required = true) => (
    <TextInput
      label={label}
      required={required}
      maxLength={max}
      value={member[key]}
      onChange={(e) => setMember({ ...member, [key]: e.currentTarget.value })}
    />
  );
  // No id typed: the API makes one.
  const { id, ...rest } = member;
  return (
    <InlineForm onSubmit={() => void onAdd(id.trim() ? member : rest).then((added) => added && setMember({ id: '', name: '', phone: '' }))}>
      {field('id', 'Member id (optional)', 64, false)}
      {field('name', 'Member name', 100)}
      {field('phone', 'Phone', 64)}
      <Button type="submit" variant="default">
        Add member
      </Button>
    </InlineForm>
  );
}
