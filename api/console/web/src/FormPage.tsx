// A page that is one form in a card (signing in, choosing a password): its title names the form,
// its error is announced as an alert, and its button shows the form is busy.
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Center, Paper, Stack, Title } from '@mantine/core';

export function FormPage({
  title,
  error,
  onSubmit,
  children,
}: {
  title: string;
  error?: string;
  onSubmit(event: FormEvent): void;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <Center component="main" mih="100vh" p="md">
      <Paper component="form" onSubmit={onSubmit} withBorder shadow="sm" p="xl" w="100%" maw={420} aria-labelledby={titleId}>
        <Stack>
          <Title order={1} size="h2" id={titleId}>
            {title}
          </Title>
          {error && (
            <Alert role="alert" color="red" variant="light">
              {error}
            </Alert>
          )}
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}

/** Submitting runs `action`; what it throws becomes the form's error, in the words `explain` gives. */
export function useFormAction(action: () => Promise<void>, explain: (err: unknown) => string = (err) => (err as Error).message) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (err) {
      setError(explain(err));
    } finally {
      setBusy(false);
    }
  };
  return { submit, busy, error };
}
