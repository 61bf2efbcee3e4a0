// "Test the message webhook": sends a signed sample message.test once and shows how the receiver
// answered, for the account's message webhook and for an agent's own.
import { useState } from 'react';
import { Alert, Button, Card, Code, Text, Title } from '@mantine/core';
import type { TestMessage } from '../api/access';
import { when } from './DataTable';
import { useChange } from './Change';

/** `to`: the saved address, null when there is none yet; `headingId` names the card for screen readers. */
export function TestMessageCard({
  to,
  title,
  headingId,
  send,
}: {
  to: string | null;
  title: string;
  headingId: string;
  send(): Promise<TestMessage>;
}) {
  const [answer, setAnswer] = useState<TestMessage>();
  const change = useChange(() => {});
  const run = () => change.run(async () => setAnswer(await send()));
  return (
    <Card withBorder component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId} mb="sm">
        {title}
      </Title>
      <Text size="sm" mb="sm">
        Sends a signed sample <Code>message.test</Code> to the message webhook address once, and shows how it answered.
      </Text>
      {to === null && (
        <Text size="sm" mb="sm">
          Save a message webhook address first.
        </Text>
      )}
      <Button variant="default" w="fit-content" onClick={run} loading={change.busy} disabled={to === null}>
        Send test message
      </Button>
      {change.alert}
      {answer && (
        <Alert role="status" my="sm" color={answer.delivered ? 'green' : 'red'} variant="light">
          <Text fw={700}>{answer.delivered ? 'Delivered' : 'Not delivered'}</Text>
          <Text size="sm" className="one-time">
            {answer.url} answered {answer.status === null ? 'nothing' : `HTTP ${answer.status}`} in {answer.duration_ms} ms (
            {when(answer.sent_at)}){answer.error ? `: ${answer.error}` : ''}
          </Text>
        </Alert>
      )}
    </Card>
  );
}
