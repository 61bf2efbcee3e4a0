import { useState } from 'react';
import { Button, Code, Group, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { access, type AuditEntry } from '../api/access';
import { Loaded, useLoaded } from '../components/Loaded';
import { DataTable, when } from '../components/DataTable';

export function Audit() {
  useDocumentTitle('Audit log · Switchboard');
  // The page's cursors, newest first: going back pops one.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  const load = useLoaded(() => access.audit(cursor), cursor);
  return (
    <>
      <Title order={1} mb="md">
        Audit log
      </Title>
      <Loaded load={load} what="the audit log">
        {({ entries, next_cursor }) => (
          <>
            <DataTable<AuditEntry>
              caption="Audit log, newest first"
              rows={entries}
              rowKey={(e) => e.id}
              empty="Nothing recorded yet."
              columns={[
                { label: 'When', cell: (e) => when(e.at) },
                { label: 'Who', cell: (e) => e.user?.email ?? 'operator' },
                { label: 'Action', cell: (e) => <Code>{e.action}</Code> },
                { label: 'Target', cell: (e) => e.target ?? '—' },
              ]}
            />
            <Group>
              <Button variant="default" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
                Newer entries
              </Button>
              <Button variant="default" disabled={!next_cursor} onClick={() => setCursors([...cursors, next_cursor!])}>
                Older entries
              </Button>
            </Group>
          </>
        )}
      </Loaded>
    </>
  );
}
