// Jobs: the list by status, and one job (?id=) with its conversation, its answer to a waiting
// question (reply, approve, reject) and cancel; a job still moving is polled so it updates by itself.
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Anchor, Badge, Button, Card, Group, NativeSelect, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { mayAct } from '../api';
import { JOB_STATUSES, TERMINAL, jobsApi, type Decision, type Job, type JobStatus } from '../api/jobs';
import { DataTable, when } from '../components/DataTable';
import { Loaded, useLoaded, usePoll } from '../components/Loaded';
import { Messages } from '../components/Messages';
import { useChange } from '../components/Change';
import { BackTo, listOrItem } from '../components/ListOrItem';
import { useSignedIn } from '../session';

const STATUS_LABEL: Record<JobStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  waiting: 'Waiting',
  waiting_for_reply: 'Waiting for a human',
  succeeded: 'Succeeded',
  failed: 'Failed',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

export function StatusBadge({ status }: { status: JobStatus }) {
  const color =
    status === 'succeeded'
      ? 'green'
      : status === 'failed' || status === 'expired'
        ? 'red'
        : status === 'waiting_for_reply'
          ? 'orange'
          : 'gray';
  // A tint of the status's colour behind near-black text: readable whatever the colour.
  return (
    <Badge variant="light" color={color} c="gray.9">
      {STATUS_LABEL[status]}
    </Badge>
  );
}

function JobList() {
  useDocumentTitle('Jobs · Switchboard');
  const [params, setParams] = useSearchParams();
  const status = (params.get('status') ?? '') as JobStatus | '';
  const load = useLoaded(() => jobsApi.list(status || undefined), status);
  usePoll(load.reload, true, 5000);
  return (
    <>
      <Title order={1} mb="md">
        Jobs
      </Title>
      <NativeSelect
        label="Status"
        mb="md"
        maw={280}
        value={status}
        onChange={(e) => setParams(e.currentTarget.value ? { status: e.currentTarget.value } : {})}
        data={[{ value: '', label: 'All' }, ...JOB_STATUSES.map((s) => ({ value: s, label: STATUS_LABEL[s] }))]}
      />
      <Loaded load={load} what="jobs">
        {({ jobs, total }) => (
          <DataTable
            rows={jobs}
            rowKey={(j) => j.triggerId}
            caption={`${total} job${total === 1 ? '' : 's'}`}
            empty="No jobs."
            columns={[
              {
                label: 'Task',
                cell: (j) => (
                  <Anchor component={Link} to={`/jobs?id=${j.triggerId}`}>
                    {j.task.length > 80 ? `${j.task.slice(0, 80)}…` : j.task}
                  </Anchor>
                ),
              },
              { label: 'Status', cell: (j) => <StatusBadge status={j.status} /> },
              { label: 'Attempts', cell: (j) => `${j.attemptCount} of ${j.maxAttempts}` },
              { label: 'Created', cell: (j) => when(j.createdAt) },
            ]}
          />
        )}
      </Loaded>
    </>
  );
}

function JobPage({ id }: { id: string }) {
  useDocumentTitle('Job · Switchboard');
  const load = useLoaded(() => jobsApi.get(id), id);
  const status = load.data?.job.status;
  usePoll(load.reload, status !== undefined && !TERMINAL.has(status));
  return (
    <>
      <BackTo to="/jobs" label="All jobs" />
      <Title order={1} my="md">
        Job
      </Title>
      <Loaded load={load} what="the job">
        {({ job }) => <JobDetail job={job} onChange={load.reload} />}
      </Loaded>
    </>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="sm" fw={700} component="dt">
        {label}
      </Text>
      <Text size="sm" component="dd" m={0} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
        {children}
      </Text>
    </div>
  );
}

function JobDetail({ job, onChange }: { job: Job; onChange(): Promise<void> }) {
  const { user } = useSignedIn();
  const member = mayAct(user.role, 'member');
  const conversation = useLoaded(() => jobsApi.conversation(job.conversationId), `${job.conversationId}:${job.status}:${job.attemptCount}`);
  return (
    <Stack>
      <Group>
        <StatusBadge status={job.status} />
        {member && !TERMINAL.has(job.status) && <CancelButton job={job} onChange={onChange} />}
      </Group>
      <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} m={0}>
        <Field label="Task">{job.task}</Field>
        {job.successCriteria && <Field label="Success criteria">{job.successCriteria}</Field>}
        <Field label="Attempts">{`${job.attemptCount} of ${job.maxAttempts}`}</Field>
        <Field label="Created">{when(job.createdAt)}</Field>
        <Field label="Started">{when(job.startedAt)}</Field>
        <Field label="Completed">{when(job.completedAt)}</Field>
        {job.nextRunAt && <Field label="Next run">{when(job.nextRunAt)}</Field>}
        <Field label="Expires">{when(job.expiresAt)}</Field>
        {job.resultSummary && <Field label="Result">{job.resultSummary}</Field>}
        {job.errorMessage && <Field label="Error">{job.errorMessage}</Field>}
        {job.humanReply && (
          <Field label="Human reply">{`${job.humanReply.decision}${job.humanReply.reason ? `: ${job.humanReply.reason}` : ''}`}</Field>
        )}
      </SimpleGrid>
      {job.status === 'waiting_for_reply' && <Question job={job} member={member} onChange={onChange} />}
      <Title order={2} size="h3">
        Conversation
      </Title>
      <Anchor component={Link} to={`/conversations?id=${job.conversationId}`}>
        Open the conversation
      </Anchor>
      <Loaded load={conversation} what="the conversation">
        {({ conversation: c }) => <Messages messages={c.messages} />}
      </Loaded>
    </Stack>
  );
}

/** The question a parked job asks, and for members the three ways to answer it. */
function Question({ job, member, onChange }: { job: Job; member: boolean; onChange(): Promise<void> }) {
  const [reason, setReason] = useState('');
  const { busy, alert, run } = useChange(onChange);
  const answer = (decision: Decision) => run(() => jobsApi.reply(job.triggerId, decision, reason.trim() || undefined));
  return (
    <Card withBorder component="section" aria-labelledby="job-question">
      <Title order={2} size="h3" id="job-question">
        Waiting for a human
      </Title>
      <Text my="xs" style={{ overflowWrap: 'anywhere' }}>
        {job.waitingReason}
      </Text>
      {job.waitPayload && (
        <Text size="sm" component="pre" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {JSON.stringify(job.waitPayload, null, 2)}
        </Text>
      )}
      {member && (
        <Stack gap="xs">
          {alert}
          <Textarea
            label="Your answer (needed to reply, optional to approve or reject)"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            maxLength={4000}
            autosize
            minRows={2}
          />
          <Group>
            <Button loading={busy} disabled={!reason.trim()} onClick={() => answer('provided')}>
              Reply
            </Button>
            <Button loading={busy} onClick={() => answer('approved')}>
              Approve
            </Button>
            <Button loading={busy} color="red.9" onClick={() => answer('rejected')}>
              Reject
            </Button>
          </Group>
        </Stack>
      )}
    </Card>
  );
}

function CancelButton({ job, onChange }: { job: Job; onChange(): Promise<void> }) {
  const { busy, error, run } = useChange(onChange);
  return (
    <>
      <Button variant="default" loading={busy} onClick={() => run(() => jobsApi.cancel(job.triggerId))}>
        Cancel job
      </Button>
      {error && (
        <Text role="alert" c="red.9" size="sm">
          {error}
        </Text>
      )}
    </>
  );
}

export const Jobs = listOrItem(JobList, JobPage);
