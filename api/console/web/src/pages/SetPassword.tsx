import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, PasswordInput, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { api } from '../api';
import { FormPage, useFormAction } from '../FormPage';
import { useSignedIn } from '../session';

/** Where a one-time sign-in link lands: the person chooses the password they will sign in with. */
export function SetPassword() {
  useDocumentTitle('Choose a password · Switchboard');
  const session = useSignedIn();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const { submit, busy, error } = useFormAction(async () => {
    if (password !== again) throw new Error('The two passwords are not the same.');
    await api.setPassword(password);
    navigate('/', { replace: true });
  });

  return (
    <FormPage title="Choose a password" error={error} onSubmit={submit}>
      <Text>You are signed in as {session.user.email}. Choose the password you will sign in with from now on.</Text>
      <PasswordInput
        label="New password"
        name="password"
        autoComplete="new-password"
        required
        value={password}
        onChange={(e) => setPassword(e.currentTarget.value)}
      />
      <PasswordInput
        label="New password again"
        name="password-again"
        autoComplete="new-password"
        required
        value={again}
        onChange={(e) => setAgain(e.currentTarget.value)}
      />
      <Button type="submit" loading={busy}>
        Save password
      </Button>
    </FormPage>
  );
}
