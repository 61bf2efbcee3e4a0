import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, PasswordInput, TextInput } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { api, ApiError } from '../api';
import { FormPage, useFormAction } from '../FormPage';
import { useSession } from '../session';

/** What the person can do about each refusal, in their words. */
function explain(err: unknown): string {
  if (err instanceof ApiError && err.code === 'invalid_credentials') return 'The email or password is not right.';
  if (err instanceof ApiError && err.code === 'rate_limited') return 'Too many attempts. Wait a minute, then try again.';
  return `Signing in failed: ${(err as Error).message}`;
}

/** Only a path of this site: `next` must not send the user elsewhere after signing in. */
function localPath(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function SignIn() {
  useDocumentTitle('Sign in · Switchboard');
  const { setSession } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { submit, busy, error } = useFormAction(async () => {
    setSession(await api.signIn(email, password));
    navigate(localPath(params.get('next')), { replace: true });
  }, explain);

  return (
    <FormPage title="Sign in to Switchboard" error={error} onSubmit={submit}>
      <TextInput label="Email" type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
      <PasswordInput label="Password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
      <Button type="submit" loading={busy}>
        Sign in
      </Button>
    </FormPage>
  );
}
