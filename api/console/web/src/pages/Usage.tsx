import { useState, type FormEvent } from 'react';
import { Anchor, Button, Checkbox, Group, Stack, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { USAGE_GROUPS, usageApi, type UsageGroup, type UsageQuery, type UsageRow } from '../api/usage';
import { DataTable, type Column } from '../components/DataTable';
import { Loaded, useLoaded } from '../components/Loaded';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

const GROUP_COLUMNS: Record<UsageGroup, Column<UsageRow>> = {
  day: { label: 'Day', cell: (r) => r.day },
  key: { label: 'API key', cell: (r) => r.key_id },
  app: { label: 'App', cell: (r) => r.app ?? '—' },
  channel: { label: 'Channel', cell: (r) => r.channel },
};

export function Usage() {
  useDocumentTitle('Usage · Switchboard');
  const [query, setQuery] = useState<UsageQuery>({ from: day(-29), to: day(0), groupBy: ['day'] });
  const [draft, setDraft] = useState(query);
  const load = useLoaded(() => usageApi.report(query), query);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setQuery(draft);
  };
  const columns: Column<UsageRow>[] = [
    ...query.groupBy.map((g) => GROUP_COLUMNS[g]),
    { label: 'Requests', cell: (r) => r.requests.toLocaleString('en'), numeric: true },
    { label: 'Over the limit', cell: (r) => r.requests_over_limit.toLocaleString('en'), numeric: true },
    { label: 'Calls placed', cell: (r) => r.calls_placed.toLocaleString('en'), numeric: true },
  ];
  return (
    <>
      <Title order={1} mb="md">
        Usage
      </Title>
      <Stack>
        <form onSubmit={submit} aria-label="Usage report">
          <Group align="end">
            <TextInput
              type="date"
              label="From"
              required
              value={draft.from}
              onChange={(e) => setDraft({ ...draft, from: e.currentTarget.value })}
            />
            <TextInput
              type="date"
              label="To"
              required
              value={draft.to}
              onChange={(e) => setDraft({ ...draft, to: e.currentTarget.value })}
            />
            <Checkbox.Group
              label="Group by"
              value={draft.groupBy}
              onChange={(v) => setDraft({ ...draft, groupBy: USAGE_GROUPS.filter((g) => v.includes(g)) })}
            >
              <Group mt={6}>
                {USAGE_GROUPS.map((g) => (
                  <Checkbox key={g} value={g} label={GROUP_COLUMNS[g].label} />
                ))}
              </Group>
            </Checkbox.Group>
            <Button type="submit">Show</Button>
          </Group>
        </form>
        <Loaded load={load} what="the usage report">
          {(report) => (
            <Stack>
              <Anchor href={usageApi.csvHref(query)} download>
                Download CSV ({report.from} to {report.to})
              </Anchor>
              <DataTable
                caption={`Usage from ${report.from} to ${report.to} (UTC days)`}
                columns={columns}
                rows={report.data}
                rowKey={(r, i) => `${r.day}-${r.key_id}-${r.app}-${r.channel}-${i}`}
                empty="No requests or calls in this period."
              />
            </Stack>
          )}
        </Loaded>
      </Stack>
    </>
  );
}
