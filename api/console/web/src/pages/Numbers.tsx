import { useState, type FormEvent } from 'react';
import { Alert, Button, Code, Group, Modal, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { numbersApi, type PhoneNumber } from '../api/numbers';
import { mayAct } from '../api';
import { DataTable } from '../components/DataTable';
import { Loaded, useLoaded } from '../components/Loaded';
import { useSignedIn } from '../session';

export function Numbers() {
  useDocumentTitle('Numbers · Switchboard');
  const { user } = useSignedIn();
  const canChange = mayAct(user.role, 'member');
  const load = useLoaded(numbersApi.list);
  const [editing, setEditing] = useState<PhoneNumber>();
  return (
    <>
      <Title order={1} mb="md">
        Numbers and routing
      </Title>
      <Loaded load={load} what="the numbers">
        {(numbers) => (
          <DataTable
            caption="The account's numbers and how calls to them are answered"
            rows={numbers}
            rowKey={(n) => n.number}
            empty="The account has no numbers yet: the operator assigns them."
            columns={[
              { label: 'Number', cell: (n) => `${n.number}${n.default ? ' (default)' : ''}` },
              { label: 'Name', cell: (n) => n.name || '—' },
              { label: 'Routing', cell: (n) => <Code>{n.routing ? JSON.stringify(n.routing) : 'not answered'}</Code> },
              ...(canChange
                ? [
                    {
                      label: 'Change',
                      cell: (n: PhoneNumber) => (
                        <Button variant="default" size="xs" onClick={() => setEditing(n)} aria-label={`Edit ${n.number}`}>
                          Edit
                        </Button>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        )}
      </Loaded>
      {editing && (
        <EditNumber
          number={editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            void load.reload();
          }}
        />
      )}
    </>
  );
}

function EditNumber({ number, onClose, onSaved }: { number: PhoneNumber; onClose: () => void; onSaved: () => void }) {
  const [name, setName] = useState(number.name);
  const [routing, setRouting] = useState(number.routing ? JSON.stringify(number.routing, null, 2) : '');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    let parsed: unknown = null;
    try {
      parsed = routing.trim() ? JSON.parse(routing) : null;
    } catch {
      setError('Routing must be JSON: a routing step such as {"type": "transfer", "to": "+12025550199"}, or empty for none.');
      return;
    }
    setSaving(true);
    try {
      await numbersApi.update(number.number, { name, routing: parsed });
      onSaved();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={`Edit ${number.number}`} closeButtonProps={{ 'aria-label': 'Close' }} lockScroll={false}>
      <form onSubmit={submit}>
        <Stack>
          {error && (
            <Alert role="alert" color="red">
              {error}
            </Alert>
          )}
          <TextInput label="Name" value={name} maxLength={100} onChange={(e) => setName(e.currentTarget.value)} />
          <Textarea
            label="Routing"
            aria-describedby="routing-help"
            rows={6}
            ff="monospace"
            value={routing}
            onChange={(e) => setRouting(e.currentTarget.value)}
          />
          <Text size="sm" id="routing-help">
            A routing step as JSON (ai, menu, queue, voicemail, transfer or webhook); empty: calls are not answered.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
