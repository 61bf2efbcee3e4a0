import { Card, Table, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { access } from '../api/access';
import { Loaded, useLoaded } from '../components/Loaded';

export function Carrier() {
  useDocumentTitle('Carrier · Switchboard');
  const load = useLoaded(access.carrier);
  return (
    <>
      <Title order={1} mb="md">
        Carrier
      </Title>
      <Text mb="md">The network your calls and numbers go through. Your operator changes it.</Text>
      <Loaded load={load} what="the carrier settings">
        {(c) => (
          <Card withBorder maw={560}>
            <Table variant="vertical">
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th>Carrier</Table.Th>
                  <Table.Td>{c.carrier}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Account</Table.Th>
                  <Table.Td>{c.source === 'account' ? 'Your own carrier account' : "The deployment's"}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Account SID</Table.Th>
                  <Table.Td>{c.account_sid ?? '—'}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Auth token</Table.Th>
                  <Table.Td>{c.auth_token_set ? 'Set (never shown)' : 'Not set'}</Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </Card>
        )}
      </Loaded>
    </>
  );
}
