// The account's calls, newest first, with the Voice API's filters; live changes arrive without reload.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Badge, Button, Group, Loader, NativeSelect, SimpleGrid, Table, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { CALL_STATUSES, listCalls, watchCalls, type Call, type CallFilters } from '../api/calls';

const STATUS_COLOURS: Record<string, string> = { 'in-progress': 'green', ringing: 'yellow', queued: 'gray', completed: 'blue' };

export function CallStatus({ status }: { status: string }) {
  return (
    // A dot badge: its words are in the text colour, so every status colour keeps AA contrast.
    <Badge color={STATUS_COLOURS[status] ?? 'red'} variant="dot">
      {status}
    </Badge>
  );
}

/** A datetime-local field's value as the API's ISO time, in the browser's zone. */
const isoOf = (local: FormDataEntryValue | null): string | undefined => (local ? new Date(String(local)).toISOString() : undefined);

function readFilters(form: HTMLFormElement): CallFilters {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? '').trim() || undefined;
  return {
    status: text('status'),
    direction: text('direction'),
    to: text('to'),
    from: text('from'),
    created_after: isoOf(data.get('created_after')),
    created_before: isoOf(data.get('created_before')),
  };
}

const noFilters = (f: CallFilters) => Object.values(f).every((v) => v === undefined);

export function Calls() {
  useDocumentTitle('Calls · Switchboard');
  const [filters, setFilters] = useState<CallFilters>({});
  const [calls, setCalls] = useState<Call[]>();
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(async (f: CallFilters, cursor?: string) => {
    setBusy(true);
    setError(undefined);
    try {
      const page = await listCalls(f, cursor);
      setCalls((shown) => (cursor ? [...(shown ?? []), ...page.data] : page.data));
      setNext(page.next_cursor);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }, []);

  useEffect(() => {
    void load(filters);
    return watchCalls((event) => {
      if (event.type === 'resync') return void load(filters);
      if (event.type !== 'call') return;
      setCalls((shown) => {
        if (!shown) return shown;
        if (shown.some((c) => c.id === event.call.id)) return shown.map((c) => (c.id === event.call.id ? event.call : c));
        // A new call is shown at the top when nothing filters the list (a filtered list is read again on demand).
        return noFilters(filters) ? [event.call, ...shown] : shown;
      });
    });
  }, [filters, load]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFilters(readFilters(event.currentTarget));
  };

  return (
    <>
      <Title order={1} mb="md">
        Calls
      </Title>
      <form onSubmit={submit} aria-label="Filter calls">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} mb="md">
          <NativeSelect label="Status" name="status" data={[{ value: '', label: 'Any status' }, ...CALL_STATUSES]} />
          <NativeSelect label="Direction" name="direction" data={[{ value: '', label: 'Either direction' }, 'outbound', 'inbound']} />
          <TextInput label="To number" name="to" inputMode="tel" />
          <TextInput label="From number" name="from" inputMode="tel" />
          <TextInput label="Placed after" name="created_after" type="datetime-local" />
          <TextInput label="Placed before" name="created_before" type="datetime-local" />
        </SimpleGrid>
        <Group mb="md">
          <Button type="submit">Filter</Button>
          <Button type="reset" variant="default" onClick={() => setFilters({})}>
            Clear
          </Button>
        </Group>
      </form>
      {error && (
        <Alert role="alert" color="red" title="Could not load calls" mb="md">
          {error}
        </Alert>
      )}
      {!calls && !error && <Loader aria-label="Loading calls" />}
      {calls && calls.length === 0 && <Text>No calls match.</Text>}
      {calls && calls.length > 0 && <CallTable calls={calls} />}
      {next && (
        <Button mt="md" variant="default" loading={busy} onClick={() => void load(filters, next)}>
          Load more calls
        </Button>
      )}
    </>
  );
}

function CallTable({ calls }: { calls: Call[] }) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped aria-label="Calls">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Placed</Table.Th>
            <Table.Th>Direction</Table.Th>
            <Table.Th>From</Table.Th>
            <Table.Th>To</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Duration</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {calls.map((call) => (
            <Table.Tr key={call.id} data-call-id={call.id}>
              <Table.Td>
                <Anchor component={Link} to={`/calls/${call.id}`}>
                  {new Date(call.created_at).toLocaleString()}
                </Anchor>
              </Table.Td>
              <Table.Td>{call.direction}</Table.Td>
              <Table.Td>{call.from}</Table.Td>
              <Table.Td>{call.to}</Table.Td>
              <Table.Td>
                <CallStatus status={call.status} />
              </Table.Td>
              <Table.Td>{call.duration_sec} s</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
