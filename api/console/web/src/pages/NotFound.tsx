import { Anchor, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Link } from 'react-router';

export function NotFound() {
  useDocumentTitle('Not found · Switchboard');
  return (
    <>
      <Title order={1} mb="md">
        No such page
      </Title>
      <Text>
        The console has no page here yet.{' '}
        <Anchor component={Link} to="/">
          Back to the overview
        </Anchor>
      </Text>
    </>
  );
}
