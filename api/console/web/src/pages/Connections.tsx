// Connections: the customer systems campaigns take their list from and send results to. Members add,
// change and delete them; a sign-in header's value can be set or replaced, never read back.
import { useState } from 'react';
import { Button, Code, Group, Modal, PasswordInput, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { mayAct } from '../api';
import { campaignsApi, type Connection, type ConnectionChange } from '../api/campaigns';
import { DangerButton, useChange } from '../components/Change';
import { DialogForm } from '../components/DialogForm';
import { DataTable, when } from '../components/DataTable';
import { Loaded, useLoaded } from '../components/Loaded';
import { useSignedIn } from '../session';

export function Connections() {
  useDocumentTitle('Connections · Switchboard');
  const { user } = useSignedIn();
  const member = mayAct(user.role, 'member');
  const load = useLoaded(campaignsApi.connections);
  const remove = useChange(load.reload);
  // undefined: no form open; null: a new connection.
  const [editing, setEditing] = useState<Connection | null>();
  return (
    <>
      <Title order={1} mb="md">
        Connections
      </Title>
      <Text mb="md">
        A campaign takes its list of people from a connection's list path at the start of each run, and sends each result and the run's
        summary to its results path.
      </Text>
      {member && (
        <Button mb="md" onClick={() => setEditing(null)}>
          New connection
        </Button>
      )}
      {remove.alert}
      <Loaded load={load} what="the connections">
        {(connections) => (
          <DataTable
            caption="The account's connections"
            rows={connections}
            rowKey={(c) => c.id}
            empty="No connections yet."
            columns={[
              { label: 'Name', cell: (c) => c.name },
              { label: 'Address', cell: (c) => <Code>{c.base_url}</Code> },
              { label: 'Paths', cell: (c) => `${c.list_path}, ${c.results_path}` },
              { label: 'Sign-in header', cell: (c) => (c.sign_in_header ? `${c.sign_in_header.name} (value set)` : 'none') },
              { label: 'Changed', cell: (c) => when(c.updated_at) },
              ...(member
                ? [
                    {
                      label: 'Change',
                      cell: (c: Connection) => (
                        <Group gap="xs" wrap="nowrap">
                          <Button size="xs" variant="default" aria-label={`Edit ${c.name}`} onClick={() => setEditing(c)}>
                            Edit
                          </Button>
                          <DangerButton
                            action="Delete"
                            target={c.name}
                            onClick={() => remove.run(() => campaignsApi.deleteConnection(c.id))}
                          />
                        </Group>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        )}
      </Loaded>
      {editing !== undefined && <ConnectionForm connection={editing} onClose={() => setEditing(undefined)} onSaved={load.reload} />}
    </>
  );
}

/** The body to send: every field for a new connection; for one that exists, only what changed. */
function changeOf(
  connection: Connection | null,
  form: Record<'name' | 'base_url' | 'list_path' | 'results_path' | 'header' | 'value', string>,
): ConnectionChange {
  const out: ConnectionChange = {};
  for (const key of ['name', 'base_url', 'list_path', 'results_path'] as const) {
    if (form[key].trim() && form[key].trim() !== connection?.[key]) out[key] = form[key].trim();
  }
  const header = form.header.trim();
  if (!header) {
    if (connection?.sign_in_header) out.sign_in_header = null;
  } else if (form.value || header !== connection?.sign_in_header?.name) {
    if (!form.value) throw new Error('Give the sign-in header’s value: it is stored, never shown, so a new header needs it again.');
    out.sign_in_header = { name: header, value: form.value };
  }
  return out;
}

function ConnectionForm({ connection, onClose, onSaved }: { connection: Connection | null; onClose(): void; onSaved(): Promise<void> }) {
  const [form, setForm] = useState({
    name: connection?.name ?? '',
    base_url: connection?.base_url ?? '',
    list_path: connection?.list_path ?? '/campaign/list',
    results_path: connection?.results_path ?? '/campaign/results',
    header: connection?.sign_in_header?.name ?? '',
    value: '',
  });
  const change = useChange(onSaved);
  const field = (key: keyof typeof form) => ({
    value: form[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      const value = e.currentTarget.value;
      setForm((f) => ({ ...f, [key]: value }));
    },
  });
  const title = connection ? `Edit ${connection.name}` : 'New connection';
  const save = async () => {
    const saved = await change.run(() => {
      const body = changeOf(connection, form);
      return connection ? campaignsApi.updateConnection(connection.id, body) : campaignsApi.createConnection(body);
    });
    if (saved) onClose();
  };
  return (
    <Modal opened onClose={onClose} title={title} closeButtonProps={{ 'aria-label': 'Close' }} lockScroll={false}>
      <DialogForm onSubmit={() => void save()} onCancel={onClose} busy={change.busy} alert={change.alert} submit="Save connection">
        <TextInput label="Name" required maxLength={100} {...field('name')} />
        <TextInput label="Address (https)" required placeholder="https://crm.example.com" {...field('base_url')} />
        <Group grow align="flex-start">
          <TextInput label="List path" {...field('list_path')} />
          <TextInput label="Results path" {...field('results_path')} />
        </Group>
        <TextInput
          label="Sign-in header name"
          placeholder="X-Api-Key"
          description="Sent with every request to your system; empty: none."
          {...field('header')}
        />
        <PasswordInput
          label="Sign-in header value"
          autoComplete="off"
          description={
            connection?.sign_in_header ? 'Stored and never shown: fill in only to replace it.' : 'Stored encrypted and never shown again.'
          }
          {...field('value')}
        />
      </DialogForm>
    </Modal>
  );
}
