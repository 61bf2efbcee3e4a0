import { Card, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useSignedIn } from '../session';
import { usageApi, type Overview as OverviewData } from '../api/usage';
import { DataTable } from '../components/DataTable';
import { DayChart } from '../components/DayChart';
import { Loaded, useLoaded } from '../components/Loaded';

export function Overview() {
  useDocumentTitle('Overview · Switchboard');
  const { user, account } = useSignedIn();
  const load = useLoaded(usageApi.overview);
  return (
    <>
      <Title order={1} mb="md">
        Overview
      </Title>
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Card withBorder component="section" aria-labelledby="overview-account">
            <Title order={2} size="h4" id="overview-account">
              Account
            </Title>
            <Text fw={600}>{account.name}</Text>
            <Text size="sm">{account.id}</Text>
          </Card>
          <Card withBorder component="section" aria-labelledby="overview-user">
            <Title order={2} size="h4" id="overview-user">
              Signed in as
            </Title>
            <Text fw={600}>{user.name}</Text>
            <Text size="sm">
              {user.email} · {user.role}
            </Text>
          </Card>
        </SimpleGrid>
        <Loaded load={load} what="usage">
          {(data) => <UsageAndLimits data={data} />}
        </Loaded>
      </Stack>
    </>
  );
}

function UsageAndLimits({ data }: { data: OverviewData }) {
  const { limits } = data;
  const pending = limits.max_pending_jobs;
  return (
    <>
      <section aria-labelledby="overview-limits">
        <Title order={2} size="h4" id="overview-limits" mb="xs">
          Limits
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
          <Limit
            label="Requests per minute"
            value={limits.requests_per_minute.limit}
            used={limits.requests_per_minute.busiest_key_this_minute}
            note="per API key; busiest key this minute"
          />
          <Limit
            label="Concurrent calls"
            value={limits.max_concurrent_calls.limit}
            used={limits.max_concurrent_calls.live}
            note="calls live now"
          />
          <Limit
            label="Calls per minute"
            value={limits.calls_per_minute.limit}
            used={limits.calls_per_minute.this_minute}
            note="placed this minute through the API and MCP"
          />
          <Limit
            label="Pending jobs per conversation"
            value={pending.limit}
            used={pending.most_pending_in_one_conversation}
            note="busiest conversation now"
          />
          {limits.max_concurrent_jobs.limit === null ? (
            <Fact label="Concurrent jobs" value="No cap" note={`${limits.max_concurrent_jobs.running.toLocaleString('en')} running now`} />
          ) : (
            <Limit
              label="Concurrent jobs"
              value={limits.max_concurrent_jobs.limit}
              used={limits.max_concurrent_jobs.running}
              note="running now; more wait their turn"
            />
          )}
          <Fact
            label="Calls to one number"
            value={`${limits.calls_per_number.per_day.toLocaleString('en')} a day, ${limits.calls_per_number.per_week.toLocaleString('en')} a week`}
            note="outbound, API, MCP and campaigns together; campaigns skip a number at either"
          />
          <Fact label="Countries calls may go to" value={limits.allowed_countries.join(', ')} note="outbound calls elsewhere are refused" />
          <Limit
            label="Credits balance"
            value={limits.credits.balance}
            note={
              limits.credits.billing === 'payg' ? 'pay as you go' : `turns stop below ${limits.credits.min_credits.toLocaleString('en')}`
            }
          />
        </SimpleGrid>
      </section>
      <section aria-labelledby="overview-usage">
        <Title order={2} size="h4" id="overview-usage" mb="xs">
          Usage, {data.from} to {data.to}
        </Title>
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          <DayChart title="Requests" days={data.days} field="requests" />
          <DayChart title="Calls placed" days={data.days} field="calls_placed" />
          <DayChart title="Credits used" days={data.days} field="credits_used" />
        </SimpleGrid>
      </section>
      <section aria-labelledby="overview-jobs">
        <Title order={2} size="h4" id="overview-jobs" mb="xs">
          Jobs by status
        </Title>
        <DataTable
          caption="The account's jobs in each status now"
          rows={Object.entries(data.jobs_by_status)}
          rowKey={([status]) => status}
          columns={[
            { label: 'Status', cell: ([status]) => status.replaceAll('_', ' ') },
            { label: 'Jobs', cell: ([, n]) => n.toLocaleString('en'), numeric: true },
          ]}
        />
      </section>
    </>
  );
}

/** A limit that is not one number. */
function Fact({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <Card withBorder>
      <Text size="sm">{label}</Text>
      <Text fw={700} size="xl" aria-label={`${label}: ${value}`}>
        {value}
      </Text>
      <Text size="xs">{note}</Text>
    </Card>
  );
}

/** A limit, and with `used` how close the account is to it now. */
function Limit({ label, value, used, note }: { label: string; value: number; used?: number; note: string }) {
  return (
    <Card withBorder>
      <Text size="sm">{label}</Text>
      <Text fw={700} size="xl" aria-label={`${label}: ${value.toLocaleString('en')}`}>
        {value.toLocaleString('en')}
      </Text>
      {used !== undefined && (
        <>
          <Text size="sm">
            {used.toLocaleString('en')} of {value.toLocaleString('en')} used
          </Text>
          <Progress
            value={Math.min(100, (100 * used) / Math.max(1, value))}
            color={used >= value ? 'red.9' : undefined}
            aria-label={`${label}: ${used} of ${value} used`}
          />
        </>
      )}
      <Text size="xs">{note}</Text>
    </Card>
  );
}
