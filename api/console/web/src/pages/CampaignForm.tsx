// A campaign's settings as a form: a new campaign, or one to change. Only fields the user changed are
// sent, so the Voice API's defaults apply to the rest.
import { useState } from 'react';
import { Checkbox, Fieldset, Group, Modal, NativeSelect, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { numbersApi } from '../api/numbers';
import { campaignsApi, DAYS, type Campaign, type CampaignChange, type Day } from '../api/campaigns';
import { useChange } from '../components/Change';
import { DialogForm } from '../components/DialogForm';
import { Loaded, useLoaded } from '../components/Loaded';

const DAY_LABEL: Record<Day, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

const formOf = (c: Campaign | null) => ({
  name: c?.name ?? '',
  connection_id: c?.connection_id ?? '',
  agent_id: c?.agent_id ?? '',
  task: c?.task ?? '',
  greeting: c?.greeting ?? '',
  outcomes: c?.outcomes?.join(', ') ?? '',
  questions: c?.questions.map((q) => `${q.key}: ${q.question}`).join('\n') ?? '',
  from: c?.from ?? '',
  timezone: c?.timezone ?? '',
  hours_start: c?.calling_hours.start ?? '09:00',
  hours_end: c?.calling_hours.end ?? '20:00',
  max_attempts: String(c?.max_attempts ?? 3),
  retry_after_minutes: String(c?.retry_after_minutes ?? 120),
  concurrency: String(c?.concurrency ?? 5),
  leave_voicemail: c?.leave_voicemail ?? true,
  scheduled: c?.schedule != null,
  days: (c?.schedule?.days ?? ['mon', 'tue', 'wed', 'thu', 'fri']) as Day[],
  start_time: c?.schedule?.start_time ?? '10:00',
  schedule_timezone: c?.schedule?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
});
type Form = ReturnType<typeof formOf>;

/** The request body: the fields that differ from `original`, in the Voice API's shapes. */
function bodyOf(original: Form, form: Form): CampaignChange {
  const out: CampaignChange = {};
  const changed = (...keys: (keyof Form)[]) => keys.some((k) => JSON.stringify(form[k]) !== JSON.stringify(original[k]));
  for (const key of ['name', 'connection_id', 'agent_id', 'task', 'from', 'timezone'] as const) {
    if (changed(key) && form[key].trim()) out[key] = form[key].trim();
  }
  if (changed('greeting')) out.greeting = form.greeting;
  if (changed('outcomes'))
    out.outcomes = form.outcomes
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean);
  if (changed('questions')) {
    out.questions = form.questions
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => {
        const colon = line.indexOf(':');
        if (colon < 1) throw new Error(`Questions: write each as "key: question" ("${line.trim()}" has no key)`);
        return { key: line.slice(0, colon).trim(), question: line.slice(colon + 1).trim() };
      });
  }
  if (changed('hours_start', 'hours_end')) out.calling_hours = { start: form.hours_start, end: form.hours_end };
  for (const key of ['max_attempts', 'retry_after_minutes', 'concurrency'] as const) if (changed(key)) out[key] = Number(form[key]);
  if (changed('leave_voicemail')) out.leave_voicemail = form.leave_voicemail;
  if (changed('scheduled', 'days', 'start_time', 'schedule_timezone')) {
    out.schedule = form.scheduled
      ? { days: DAYS.filter((d) => form.days.includes(d)), start_time: form.start_time, timezone: form.schedule_timezone.trim() }
      : null;
  }
  return out;
}

export function CampaignForm({
  campaign,
  onClose,
  onSaved,
}: {
  campaign: Campaign | null;
  onClose(): void;
  onSaved(saved: Campaign): Promise<void>;
}) {
  const choices = useLoaded(() => Promise.all([campaignsApi.connections(), campaignsApi.agents(), numbersApi.list()]));
  const title = campaign ? `Edit ${campaign.name}` : 'New campaign';
  return (
    <Modal opened onClose={onClose} title={title} size="lg" closeButtonProps={{ 'aria-label': 'Close' }} lockScroll={false}>
      <Loaded load={choices} what="the connections, agents and numbers">
        {([connections, agents, numbers]) => (
          <Fields
            campaign={campaign}
            onClose={onClose}
            onSaved={onSaved}
            connections={connections.map((c) => ({ value: c.id, label: c.name }))}
            agents={agents.map((a) => ({ value: a.id, label: a.name }))}
            numbers={numbers.map((n) => ({ value: n.number, label: n.name ? `${n.number} (${n.name})` : n.number }))}
          />
        )}
      </Loaded>
    </Modal>
  );
}

type Option = { value: string; label: string };

function Fields({
  campaign,
  onClose,
  onSaved,
  connections,
  agents,
  numbers,
}: {
  campaign: Campaign | null;
  onClose(): void;
  onSaved(saved: Campaign): Promise<void>;
  connections: Option[];
  agents: Option[];
  numbers: Option[];
}) {
  const [original] = useState(() => formOf(campaign));
  const [form, setForm] = useState(original);
  // The page reloads once the form has closed, with what was saved.
  const change = useChange(() => undefined);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  const text = (key: keyof Form) => ({
    value: form[key] as string,
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      set(key, e.currentTarget.value as never),
  });
  const save = async () => {
    let result: Campaign | undefined;
    const ok = await change.run(async () => {
      const body = bodyOf(original, form);
      result = campaign ? await campaignsApi.update(campaign.id, body) : await campaignsApi.create(body);
    });
    if (ok && result) {
      await onSaved(result);
      onClose();
    }
  };
  const none = (label: string): Option[] => (campaign ? [] : [{ value: '', label }]);
  return (
    <DialogForm onSubmit={() => void save()} onCancel={onClose} busy={change.busy} alert={change.alert} submit="Save campaign">
      <TextInput label="Name" required maxLength={100} {...text('name')} />
      <NativeSelect label="Connection" required data={[...none('Choose a connection'), ...connections]} {...text('connection_id')} />
      <NativeSelect label="Agent" data={[...none("The account's default agent"), ...agents]} {...text('agent_id')} />
      <Textarea label="Task" description="The brief for the agent" autosize minRows={2} maxLength={8000} {...text('task')} />
      <Textarea
        label="Greeting"
        description="Said when the person answers; {{context.name}} fills in a value of their list entry"
        autosize
        minRows={1}
        maxLength={1000}
        {...text('greeting')}
      />
      <Textarea label="Questions" description="One a line: key: question" autosize minRows={2} {...text('questions')} />
      <TextInput label="Outcomes" description="Comma-separated; empty: the agent's" {...text('outcomes')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NativeSelect label="Calls from" data={[{ value: '', label: "The account's default number" }, ...numbers]} {...text('from')} />
        <TextInput label="Timezone" description="For people without one" placeholder="The account's" {...text('timezone')} />
        <TextInput type="time" label="Calling hours from" {...text('hours_start')} />
        <TextInput type="time" label="Calling hours until" {...text('hours_end')} />
        <TextInput type="number" label="Attempts per person" min={1} max={10} {...text('max_attempts')} />
        <TextInput type="number" label="Minutes between attempts" min={15} max={1440} {...text('retry_after_minutes')} />
        <TextInput type="number" label="Calls at once" min={1} max={100} {...text('concurrency')} />
      </SimpleGrid>
      <Switch
        label="Leave a voicemail on the last attempt"
        checked={form.leave_voicemail}
        onChange={(e) => set('leave_voicemail', e.currentTarget.checked)}
      />
      <Fieldset legend="Schedule">
        <Stack gap="sm">
          <Switch label="Start runs on a schedule" checked={form.scheduled} onChange={(e) => set('scheduled', e.currentTarget.checked)} />
          {form.scheduled && (
            <>
              <Checkbox.Group label="Days" value={form.days} onChange={(days) => set('days', days as Day[])}>
                <Group gap="sm" mt={4}>
                  {DAYS.map((d) => (
                    <Checkbox key={d} value={d} label={DAY_LABEL[d]} />
                  ))}
                </Group>
              </Checkbox.Group>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput type="time" label="Start time" {...text('start_time')} />
                <TextInput label="Schedule timezone" {...text('schedule_timezone')} />
              </SimpleGrid>
            </>
          )}
        </Stack>
      </Fieldset>
    </DialogForm>
  );
}
