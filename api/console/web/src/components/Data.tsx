// What every data page shares: loading its data (with loading and error states), a table that
// scrolls sideways on a phone, and a change's error announced as an alert.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Group, Loader, Table, Text } from '@mantine/core';

type State<T> = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; data: T };

/** Loads `fetch` on mount and whenever `key` changes; `reload` fetches again (after a change). */
export function useLoaded<T>(fetch: () => Promise<T>, key?: unknown): { loaded: State<T>; reload(): void } {
  const [loaded, setLoaded] = useState<State<T>>({ state: 'loading' });
  // The latest `fetch` (it may close over the page's state), without reloading on every render.
  const latest = useRef(fetch);
  latest.current = fetch;
  const reload = useCallback(() => {
    latest.current().then(
      (data) => setLoaded({ state: 'ready', data }),
      (err: Error) => setLoaded({ state: 'failed', message: err.message }),
    );
  }, []);
  useEffect(reload, [reload, key]);
  return { loaded, reload };
}

/** Renders `children(data)` once loaded; meanwhile a loader, or the error with a retry. */
export function Loaded<T>({ loaded, reload, what, children }: { loaded: State<T>; reload(): void; what: string; children(data: T): ReactNode }) {
  if (loaded.state === 'loading') return <Loader aria-label={`Loading ${what}`} my="md" />;
  if (loaded.state === 'failed') {
    return (
      <Alert role="alert" color="red" title={`Could not load ${what}`} my="md">
        <Group justify="space-between">
          <Text size="sm">{loaded.message}</Text>
          <Button size="xs" variant="default" onClick={reload}>
            Try again
          </Button>
        </Group>
      </Alert>
    );
  }
  return <>{children(loaded.data)}</>;
}

export interface Column<R> {
  label: string;
  cell(row: R): ReactNode;
}

/** A table of `rows` with a caption for screen readers; `empty` when there are none. */
export function DataTable<R>({ caption, columns, rows, rowKey, empty }: { caption: string; columns: Column<R>[]; rows: R[]; rowKey(row: R): string; empty: string }) {
  if (rows.length === 0) return <Text my="md">{empty}</Text>;
  return (
    <Table.ScrollContainer minWidth={560} my="md">
      <Table striped highlightOnHover>
        <caption className="visually-hidden">{caption}</caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.label}>{c.label}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((c) => (
                <Table.Td key={c.label}>{c.cell(row)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Runs a change; its error becomes an alert, and `done` follows success (a reload). */
export function useChange(done: () => void) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async (change: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await change();
      done();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const alert = error ? (
    <Alert role="alert" color="red" variant="light" my="sm">
      {error}
    </Alert>
  ) : null;
  return { run, busy, alert };
}

export const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString() : '—');

/** A row's destructive action (revoke, remove), asked twice: its name says which row it acts on. */
export function DangerButton({ action, target, onClick }: { action: string; target: string; onClick(): void }) {
  const [armed, setArmed] = useState(false);
  const label = armed ? `Really ${action.toLowerCase()}?` : action;
  return (
    <Button
      size="xs"
      color="red.9"
      variant={armed ? 'filled' : 'outline'}
      aria-label={armed ? `Really ${action.toLowerCase()} ${target}?` : `${action} ${target}`}
      onBlur={() => setArmed(false)}
      onClick={() => {
        if (armed) onClick();
        setArmed(!armed);
      }}
    >
      {label}
    </Button>
  );
}

/** A form of fields in a row (a column on a phone) whose submit runs `onSubmit`, not a page load. */
export function InlineForm({ onSubmit, children }: { onSubmit(): void; children: ReactNode }) {
  return (
    <Group
      component="form"
      align="end"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </Group>
  );
}
