// One campaign run: its progress, polled while it runs, each person's result as sent to the
// connection, and Stop for members.
import { Link, useParams } from 'react-router';
import { Anchor, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { mayAct } from '../api';
import { campaignsApi, type Run } from '../api/campaigns';
import { DangerButton, useChange } from '../components/Change';
import { DataTable, when } from '../components/DataTable';
import { Facts } from '../components/Facts';
import { BackTo } from '../components/ListOrItem';
import { Loaded, useLoaded, usePoll } from '../components/Loaded';
import { useSignedIn } from '../session';
import { finished, RunStatus } from './Campaigns';

export function CampaignRun() {
  useDocumentTitle('Campaign run · Switchboard');
  const { id = '' } = useParams();
  const load = useLoaded(() => Promise.all([campaignsApi.run(id), campaignsApi.results(id)]), id);
  usePoll(load.reload, load.data?.[0].status === 'running', 3000);
  return (
    <Loaded load={load} what="the run">
      {([run, results]) => (
        <Stack gap="sm">
          <BackTo to={`/campaigns?id=${run.campaign_id}`} label="Back to the campaign" />
          <Title order={1}>{run.test ? 'Test run' : 'Campaign run'}</Title>
          <RunProgress run={run} onChange={load.reload} />
          <Title order={2} size="h3" mt="md">
            Results
          </Title>
          <DataTable
            caption={`Each person's result as sent to the connection${results.next_cursor ? ' (the first 100)' : ''}`}
            rows={results.data}
            rowKey={(r) => r.contact_id}
            empty={run.status === 'running' ? 'No results yet.' : 'No results.'}
            columns={[
              { label: 'Contact', cell: (r) => r.contact_id },
              { label: 'Status', cell: (r) => r.status },
              { label: 'Outcome', cell: (r) => r.outcome ?? r.skipped_reason ?? '—' },
              { label: 'Attempts', cell: (r) => r.attempts, numeric: true },
              { label: 'Note', cell: (r) => [r.note, r.opt_out ? 'Opted out' : ''].filter(Boolean).join('. ') || '—' },
              {
                label: 'Call',
                cell: (r) =>
                  r.call_id ? (
                    <Anchor component={Link} to={`/calls/${r.call_id}`}>
                      {r.call_id}
                    </Anchor>
                  ) : (
                    '—'
                  ),
              },
            ]}
          />
        </Stack>
      )}
    </Loaded>
  );
}

function RunProgress({ run, onChange }: { run: Run; onChange(): Promise<void> }) {
  const { user } = useSignedIn();
  const stop = useChange(onChange);
  const { contacts: c } = run;
  const done = finished(run);
  return (
    <Stack gap="xs">
      <Group>
        <RunStatus run={run} />
        {mayAct(user.role, 'member') && run.status === 'running' && (
          <DangerButton action="Stop" target="the run" onClick={() => stop.run(() => campaignsApi.stop(run.id))} />
        )}
      </Group>
      {stop.alert}
      <Text data-testid="run-progress">{`${done} of ${c.total} people finished`}</Text>
      <Progress value={c.total ? (100 * done) / c.total : run.status === 'running' ? 0 : 100} aria-label="People finished" />
      <Facts
        cols={4}
        facts={[
          ['Started', when(run.started_at)],
          ['Ended', when(run.ended_at)],
          ['People', String(c.total)],
          ['Done', String(c.done)],
          ['No answer', String(c.no_answer)],
          ['Skipped', String(c.skipped)],
          ['Pending', String(c.pending)],
          ['Unfinished', String(c.unfinished)],
          [
            'Outcomes',
            Object.entries(run.outcomes)
              .map(([o, n]) => `${o}: ${n}`)
              .join(', ') || '—',
          ],
          ['Results not taken', String(run.results_not_taken)],
          ...(run.error ? [['Error', run.error] as [string, string]] : []),
        ]}
      />
    </Stack>
  );
}
