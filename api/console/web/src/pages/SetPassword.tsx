import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { api } from '../api';
import { useSignedIn } from '../session';

/** Where a one-time sign-in link lands: the person chooses the password they will sign in with. */
export function SetPassword() {
  useDocumentTitle('Choose a password · Switchboard');
  const session = useSignedIn();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== again) {
      setError('The two passwords are not the same.');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await api.setPassword(password);
      navigate('/', { replace: true });
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  return (
    <Center component="main" mih="100vh" p="md">
      <Paper component="form" onSubmit={submit} withBorder shadow="sm" p="xl" w="100%" maw={420} aria-labelledby="set-password-title">
        <Stack>
          <Title order={1} size="h2" id="set-password-title">
            Choose a password
          </Title>
          <Text>You are signed in as {session.user.email}. Choose the password you will sign in with from now on.</Text>
          {error && (
            <Alert role="alert" color="red" variant="light">
              {error}
            </Alert>
          )}
          <PasswordInput label="New password" name="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
          <PasswordInput label="New password again" name="password-again" autoComplete="new-password" required value={again} onChange={(e) => setAgain(e.currentTarget.value)} />
          <Button type="submit" loading={busy}>
            Save password
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
