import { Card, SimpleGrid, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useSignedIn } from '../session';

export function Overview() {
  useDocumentTitle('Overview · Switchboard');
  const { user, account } = useSignedIn();
  return (
    <>
      <Title order={1} mb="md">
        Overview
      </Title>
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
    </>
  );
}
