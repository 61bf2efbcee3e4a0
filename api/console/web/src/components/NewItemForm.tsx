// A titled card whose form makes a new item (a queue, a mailbox): the change's error above its fields.
import type { ReactNode } from 'react';
import { Button, Card, Title } from '@mantine/core';
import { InlineForm, type useChange } from './Change';

export function NewItemForm({
  title,
  submit,
  change,
  onSubmit,
  children,
}: {
  title: string;
  submit: string;
  change: ReturnType<typeof useChange>;
  onSubmit(): void;
  children: ReactNode;
}) {
  const headingId = `new-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Card withBorder component="section" aria-labelledby={headingId} mb="md">
      <Title order={2} size="h4" id={headingId}>
        {title}
      </Title>
      {change.alert}
      <InlineForm onSubmit={onSubmit}>
        {children}
        <Button type="submit" loading={change.busy}>
          {submit}
        </Button>
      </InlineForm>
    </Card>
  );
}
