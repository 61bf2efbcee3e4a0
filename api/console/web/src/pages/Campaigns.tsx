// Campaigns: the list, and one campaign (?id=) with its settings, Run now, a test run, and its runs,
// whose counts are polled while one is running.
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Anchor, Badge, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { mayAct } from '../api';
import { campaignsApi, type Campaign, type Connection, type Run } from '../api/campaigns';
import { DangerButton, InlineForm, useChange } from '../components/Change';
import { DataTable, when } from '../components/DataTable';
import { Facts } from '../components/Facts';
import { BackTo, listOrItem } from '../components/ListOrItem';
import { Loaded, useLoaded, usePoll } from '../components/Loaded';
import { useSignedIn } from '../session';
import { CampaignForm } from './CampaignForm';

const scheduleText = (c: Campaign) =>
  c.schedule ? `${c.schedule.days.join(', ')} at ${c.schedule.start_time} (${c.schedule.timezone})` : 'Only when started';
const connectionName = (connections: Connection[], id: string) => connections.find((c) => c.id === id)?.name ?? id;

function CampaignList() {
  useDocumentTitle('Campaigns · Switchboard');
  const { user } = useSignedIn();
  const navigate = useNavigate();
  const load = useLoaded(() => Promise.all([campaignsApi.campaigns(), campaignsApi.connections()]));
  const [creating, setCreating] = useState(false);
  return (
    <>
      <Title order={1} mb="md">
        Campaigns
      </Title>
      <Text mb="md">
        A campaign calls the people its{' '}
        <Anchor component={Link} to="/connections">
          connection
        </Anchor>{' '}
        lists, with an agent, inside calling hours in each person's timezone, and sends each result back.
      </Text>
      {mayAct(user.role, 'member') && (
        <Button mb="md" onClick={() => setCreating(true)}>
          New campaign
        </Button>
      )}
      <Loaded load={load} what="the campaigns">
        {([campaigns, connections]) => (
          <DataTable
            caption="The account's campaigns"
            rows={campaigns}
            rowKey={(c) => c.id}
            empty="No campaigns yet."
            columns={[
              {
                label: 'Name',
                cell: (c) => (
                  <Anchor component={Link} to={`/campaigns?id=${c.id}`}>
                    {c.name}
                  </Anchor>
                ),
              },
              { label: 'Connection', cell: (c) => connectionName(connections, c.connection_id) },
              { label: 'Schedule', cell: scheduleText },
              { label: 'Next start', cell: (c) => (c.archived ? 'Archived' : when(c.next_start_at)) },
            ]}
          />
        )}
      </Loaded>
      {creating && (
        <CampaignForm campaign={null} onClose={() => setCreating(false)} onSaved={async (c) => void navigate(`/campaigns?id=${c.id}`)} />
      )}
    </>
  );
}

export function RunStatus({ run }: { run: Run }) {
  const color = run.status === 'done' ? 'green' : run.status === 'failed' ? 'red' : run.status === 'stopped' ? 'orange' : 'blue';
  return (
    <Badge variant="light" color={color} c="gray.9">
      {run.status}
    </Badge>
  );
}

/** How many of the run's people have their result. */
export const finished = ({ contacts: c }: Run) => c.done + c.no_answer + c.skipped;

function CampaignPage({ id }: { id: string }) {
  useDocumentTitle('Campaign · Switchboard');
  const { user } = useSignedIn();
  const member = mayAct(user.role, 'member');
  const load = useLoaded(() => Promise.all([campaignsApi.campaign(id), campaignsApi.connections(), campaignsApi.agents()]), id);
  const runs = useLoaded(() => campaignsApi.runs(id), id);
  usePoll(runs.reload, runs.data?.some((r) => r.status === 'running') ?? false, 3000);
  const [editing, setEditing] = useState(false);
  return (
    <>
      <BackTo to="/campaigns" label="All campaigns" />
      <Loaded load={load} what="the campaign">
        {([c, connections, agents]) => (
          <Stack gap={0}>
            <Title order={1} my="md">
              {c.name}
            </Title>
            {c.archived && <Badge color="gray.8">Archived</Badge>}
            <Facts
              facts={[
                ['Connection', connectionName(connections, c.connection_id)],
                ['Agent', agents.find((a) => a.id === c.agent_id)?.name ?? c.agent_id],
                ['Calls from', c.from ?? "The account's default number"],
                ['Schedule', scheduleText(c)],
                ['Next start', when(c.next_start_at)],
                ['Calling hours', `${c.calling_hours.start}–${c.calling_hours.end} in each person's timezone (default ${c.timezone})`],
                ['Attempts', `${c.max_attempts}, ${c.retry_after_minutes} minutes apart`],
                ['Calls at once', String(c.concurrency)],
                ['Voicemail', c.leave_voicemail ? 'Left on the last attempt' : 'Never left'],
                ['Task', c.task ?? '—'],
                ['Greeting', c.greeting || '—'],
                ['Questions', c.questions.map((q) => `${q.key}: ${q.question}`).join('\n') || '—'],
                ['Outcomes', c.outcomes?.join(', ') ?? "The agent's"],
              ]}
            />
            {member && !c.archived && (
              <Controls
                campaign={c}
                onEdit={() => setEditing(true)}
                onChange={async () => {
                  await load.reload();
                  await runs.reload();
                }}
              />
            )}
            {editing && <CampaignForm campaign={c} onClose={() => setEditing(false)} onSaved={load.reload} />}
          </Stack>
        )}
      </Loaded>
      <Title order={2} size="h3" mt="lg">
        Runs
      </Title>
      <Loaded load={runs} what="the runs">
        {(rows) => (
          <DataTable
            caption="The campaign's runs, newest first"
            rows={rows}
            rowKey={(r) => r.id}
            empty="No runs yet."
            columns={[
              {
                label: 'Started',
                cell: (r) => (
                  <Anchor component={Link} to={`/campaign-runs/${r.id}`}>
                    {when(r.started_at)}
                  </Anchor>
                ),
              },
              { label: 'Kind', cell: (r) => (r.test ? 'Test run' : 'Run') },
              { label: 'Status', cell: (r) => <RunStatus run={r} /> },
              { label: 'Finished', cell: (r) => `${finished(r)} of ${r.contacts.total}` },
              { label: 'Done', cell: (r) => r.contacts.done, numeric: true },
              { label: 'No answer', cell: (r) => r.contacts.no_answer, numeric: true },
              { label: 'Skipped', cell: (r) => r.contacts.skipped, numeric: true },
              { label: 'Unfinished', cell: (r) => r.contacts.unfinished, numeric: true },
            ]}
          />
        )}
      </Loaded>
    </>
  );
}

/** A member's actions on a live campaign: edit, Run now, a test run to one number, archive. */
function Controls({ campaign, onEdit, onChange }: { campaign: Campaign; onEdit(): void; onChange(): Promise<void> }) {
  const change = useChange(onChange);
  const [testNumber, setTestNumber] = useState('');
  return (
    <Stack gap="xs">
      {change.alert}
      <Group>
        <Button variant="default" onClick={onEdit}>
          Edit campaign
        </Button>
        <Button loading={change.busy} onClick={() => change.run(() => campaignsApi.start(campaign.id))}>
          Run now
        </Button>
        <DangerButton action="Archive" target={campaign.name} onClick={() => change.run(() => campaignsApi.archive(campaign.id))} />
      </Group>
      <InlineForm onSubmit={() => change.run(async () => campaignsApi.start(campaign.id, testNumber.trim()).then(() => setTestNumber('')))}>
        <TextInput
          label="Test number"
          description="Called once, with the list's first person"
          required
          value={testNumber}
          onChange={(e) => setTestNumber(e.currentTarget.value)}
        />
        <Button type="submit" variant="default" loading={change.busy}>
          Start test run
        </Button>
      </InlineForm>
    </Stack>
  );
}

export const Campaigns = listOrItem(CampaignList, CampaignPage);
