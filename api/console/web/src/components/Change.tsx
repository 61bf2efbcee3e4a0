// Making a change from a page: busy while it runs, its error announced as an alert, the page reloaded after.
import { useState, type ReactNode } from 'react';
import { Alert, Button, Group } from '@mantine/core';

/** `run(change)` runs it, then `done` (a reload); it answers whether the change succeeded. */
export function useChange(done: () => unknown) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async (change: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    try {
      await change();
      await done();
      return true;
    } catch (err) {
      setError((err as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const alert = error ? (
    <Alert role="alert" color="red" variant="light" my="sm">
      {error}
    </Alert>
  ) : null;
  return { run, busy, error, alert };
}

/** A row's destructive action (revoke, remove), asked twice: its name says which row it acts on. */
export function DangerButton({ action, target, onClick }: { action: string; target: string; onClick(): void }) {
  const [armed, setArmed] = useState(false);
  const label = armed ? `Really ${action.toLowerCase()}?` : action;
  return (
    <Button
      size="xs"
      color="red.9"
      variant={armed ? 'filled' : 'outline'}
      aria-label={armed ? `Really ${action.toLowerCase()} ${target}?` : `${action} ${target}`}
      onBlur={() => setArmed(false)}
      onClick={() => {
        if (armed) onClick();
        setArmed(!armed);
      }}
    >
      {label}
    </Button>
  );
}

/** A form of fields in a row (a column on a phone) whose submit runs `onSubmit`, not a page load. */
export function InlineForm({ onSubmit, children }: { onSubmit(): void; children: ReactNode }) {
  return (
    <Group
      component="form"
      align="end"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </Group>
  );
}
