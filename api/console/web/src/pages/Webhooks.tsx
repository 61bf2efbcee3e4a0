import { useState } from 'react';
import { Button, Card, Code, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { mayAct } from '../api';
import { access, type Webhooks as Addresses } from '../api/access';
import { Loaded, useLoaded } from '../components/Loaded';
import { useChange } from '../components/Change';
import { TestMessageCard } from '../components/TestMessageCard';
import { useSignedIn } from '../session';

export function Webhooks() {
  useDocumentTitle('Webhooks · Switchboard');
  const { user } = useSignedIn();
  const load = useLoaded(access.webhooks);
  const admin = mayAct(user.role, 'admin');
  return (
    <>
      <Title order={1} mb="md">
        Webhooks
      </Title>
      <Loaded load={load} what="the webhook settings">
        {(addresses) => (
          <Stack>
            <AddressesCard addresses={addresses} editable={admin} onSaved={load.reload} />
            {admin && (
              <TestMessageCard
                to={addresses.message_webhook_url}
                title="Test the message webhook"
                headingId="webhooks-test"
                send={access.testMessage}
              />
            )}
            {admin && <SecretCard />}
          </Stack>
        )}
      </Loaded>
    </>
  );
}

function AddressesCard({ addresses, editable, onSaved }: { addresses: Addresses; editable: boolean; onSaved(): void }) {
  const [events, setEvents] = useState(addresses.events_url ?? '');
  const [messages, setMessages] = useState(addresses.message_webhook_url ?? '');
  const [saved, setSaved] = useState(false);
  const change = useChange(() => {
    setSaved(true);
    onSaved();
  });
  const save = () => change.run(() => access.saveWebhooks({ events_url: events, message_webhook_url: messages }));
  return (
    <Card withBorder component="section" aria-labelledby="webhooks-addresses">
      <Title order={2} size="h4" id="webhooks-addresses" mb="sm">
        Addresses
      </Title>
      <Stack
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(false);
          void save();
        }}
      >
        <Text size="sm">
          The events address receives call.*, queue.* and ai.* events; the message webhook the messages your agents take.
        </Text>
        <TextInput
          label="Events address"
          name="events_url"
          value={events}
          readOnly={!editable}
          onChange={(e) => setEvents(e.currentTarget.value)}
        />
        <TextInput
          label="Message webhook address"
          name="message_webhook_url"
          value={messages}
          readOnly={!editable}
          onChange={(e) => setMessages(e.currentTarget.value)}
        />
        {change.alert}
        {saved && <Text role="status">Saved.</Text>}
        {editable && (
          <Button type="submit" w="fit-content" loading={change.busy}>
            Save addresses
          </Button>
        )}
      </Stack>
    </Card>
  );
}

function SecretCard() {
  const [secret, setSecret] = useState<string>();
  const change = useChange(() => {});
  return (
    <Card withBorder component="section" aria-labelledby="webhooks-secret">
      <Title order={2} size="h4" id="webhooks-secret" mb="sm">
        Webhook secret
      </Title>
      <Text size="sm" mb="sm">
        Every webhook is signed with it. Rotating replaces it at once: the next webhook is signed with the new one.
      </Text>
      {secret && (
        <Code block mb="sm" className="one-time" data-testid="webhook-secret">
          {secret}
        </Code>
      )}
      <Group>
        <Button variant="default" onClick={() => change.run(async () => setSecret(await access.secret()))}>
          Reveal secret
        </Button>
        <Button color="red.9" variant="outline" onClick={() => change.run(async () => setSecret(await access.rotateSecret()))}>
          Rotate secret
        </Button>
      </Group>
      {change.alert}
    </Card>
  );
}
