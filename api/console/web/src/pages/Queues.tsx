// Queues: each queue's members, whether each is available and on a call now; members switch one
// member's availability, add and remove members, and make and delete queues.
import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Card, Group, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { mayAct } from '../api';
import { membersOf, queuesApi, type Queue } from '../api/queues';
import { DangerButton, InlineForm, useChange } from '../components/Change';
import { DataTable } from '../components/DataTable';
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

function NewQueue({ onMade }: { onMade(): Promise<void> }) {
  const change = useChange(onMade);
  const [name, setName] = useState('');
  const [maxWait, setMaxWait] = useState('300');
  const [hold, setHold] = useState('');
  const create = () =>
    void change
      .run(() => queuesApi.create({ name, max_wait_sec: Number(maxWait), ...(hold.trim() ? { hold_message: hold } : {}) }))
      .then((made) => made && (setName(''), setHold('')));
  return (
    <NewItemForm title="New queue" submit="Create queue" change={change} onSubmit={create}>
      <TextInput label="Name" required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <TextInput label="Longest wait (seconds)" type="number" min={10} max={3600} required value={maxWait} onChange={(e) => setMaxWait(e.currentTarget.value)} />
      <TextInput label="Hold message" maxLength={1000} value={hold} onChange={(e) => setHold(e.currentTarget.value)} />
    </NewItemForm>
  );
}

function QueueCard({ queue, canChange, reload }: { queue: Queue; canChange: boolean; reload(): Promise<void> }) {
  const change = useChange(reload);
  const headingId = `queue-${queue.id}`;
  const setMembers = (members: ReturnType<typeof membersOf>) => change.run(() => queuesApi.update(queue.id, { members }));
  return (
    <Card withBorder component="section" aria-labelledby={headingId}>
      <Group justify="space-between">
        <Title order={2} size="h4" id={headingId}>
          {queue.name}
        </Title>
        {canChange && <DangerButton action="Delete" target={`queue ${queue.name}`} onClick={() => void change.run(() => queuesApi.remove(queue.id))} />}
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
                    <DangerButton action="Remove" target={m.name} onClick={() => void setMembers(membersOf(queue).filter((other) => other.id !== m.id))} />
                  ),
                },
              ]
            : []),
        ]}
      />
      {canChange && <AddMember onAdd={(member) => setMembers([...membersOf(queue), { ...member, available: true }])} />}
    </Card>
  );
}

function AddMember({ onAdd }: { onAdd(member: { id: string; name: string; phone: string }): Promise<boolean> }) {
  const [member, setMember] = useState({ id: '', name: '', phone: '' });
  const field = (key: keyof typeof member, label: string, max: number) => (
    <TextInput label={label} required maxLength={max} value={member[key]} onChange={(e) => setMember({ ...member, [key]: e.currentTarget.value })} />
  );
  return (
    <InlineForm onSubmit={() => void onAdd(member).then((added) => added && setMember({ id: '', name: '', phone: '' }))}>
      {field('id', 'Member id', 64)}
      {field('name', 'Member name', 100)}
      {field('phone', 'Phone', 64)}
      <Button type="submit" variant="default">
        Add member
      </Button>
    </InlineForm>
  );
}
