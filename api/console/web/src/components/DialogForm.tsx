// A form inside a dialog: its error first, its fields, then Cancel and the submit button.
import type { ReactNode } from 'react';
import { Button, Group, Stack } from '@mantine/core';

export function DialogForm({
  onSubmit,
  onCancel,
  busy,
  alert,
  submit,
  children,
}: {
  onSubmit(): void;
  onCancel(): void;
  busy: boolean;
  alert: ReactNode;
  submit: string;
  children: ReactNode;
}) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <Stack>
        {alert}
        {children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {submit}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
