import { useState } from 'react';
import { Alert, Badge, Button, Code, CopyButton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { mayAct } from '../api';
import { access, type ApiKey } from '../api/access';
import { Loaded, useLoaded } from '../components/Loaded';
import { DataTable, when } from '../components/DataTable';
import { DangerButton, InlineForm, useChange } from '../components/Change';
import { useSignedIn } from '../session';

export function ApiKeys() {
  useDocumentTitle('API keys · Switchboard');
  const { user } = useSignedIn();
  const load = useLoaded(access.keys);
  const change = useChange(load.reload);
  const [name, setName] = useState('');
  // The new key's secret, shown once: held only in this page's memory, gone on reload.
  const [created, setCreated] = useState<{ name: string; secret: string }>();
  const manage = mayAct(user.role, 'admin');

  const create = () =>
    change.run(async () => {
      const { key, secret } = await access.createKey(name);
      setCreated({ name: key.name, secret });
      setName('');
    });

  return (
    <>
      <Title order={1} mb="md">
        API keys
      </Title>
      <Text mb="md">
        Keys let your systems call the Agent API and the Voice API with the header <Code>Authorization: Bearer</Code>.
      </Text>
      {manage && (
        <InlineForm onSubmit={create}>
          <TextInput label="Key name" name="name" required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <Button type="submit" loading={change.busy}>
            Create key
          </Button>
        </InlineForm>
      )}
      {change.alert}
      {created && (
        <Alert role="status" color="green" variant="light" my="md">
          <Stack gap="xs">
            <Text fw={700}>Key “{created.name}” created</Text>
            <Text size="sm">Copy it now: it is not shown again.</Text>
            <Code block className="one-time" data-testid="new-key">
              {created.secret}
            </Code>
            <CopyButton value={created.secret}>
              {({ copied, copy }) => (
                <Button size="xs" variant="default" onClick={copy} w="fit-content">
                  {copied ? 'Copied' : 'Copy key'}
                </Button>
              )}
            </CopyButton>
          </Stack>
        </Alert>
      )}
      <Loaded load={load} what="API keys">
        {(keys) => (
          <DataTable<ApiKey>
            caption="API keys"
            rows={keys}
            rowKey={(k) => k.id}
            empty="No API keys yet."
            columns={[
              { label: 'Name', cell: (k) => k.name },
              { label: 'Starts with', cell: (k) => <Code>{k.prefix}…</Code> },
              { label: 'Created', cell: (k) => when(k.created_at) },
              { label: 'Last used', cell: (k) => when(k.last_used_at) },
              {
                label: 'Status',
                cell: (k) =>
                  k.revoked ? (
                    <Badge color="gray.8">Revoked {when(k.revoked_at)}</Badge>
                  ) : manage ? (
                    <DangerButton action="Revoke" target={k.name} onClick={() => change.run(() => access.revokeKey(k.id))} />
                  ) : (
                    <Badge color="green.9">Active</Badge>
                  ),
              },
            ]}
          />
        )}
      </Loaded>
    </>
  );
}
