import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, PasswordInput, TextInput } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { api, ApiError } from '../api';
import { explainSsoRefusal, signInOptions, ssoStartUrl } from '../api/sso';
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
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function SignIn() {
  useDocumentTitle('Sign in · Switchboard');
  const { setSession } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const next = localPath(params.get('next'));
  // Single sign-on is offered once the server says the deployment has it; its refusal comes back in the URL.
  const [sso, setSso] = useState(false);
  const [ssoRefusal, setSsoRefusal] = useState(params.get('sso_error'));
  useEffect(() => {
    signInOptions().then(
      (options) => setSso(options.sso),
      () => setSso(false),
    );
  }, []);
  const { submit, busy, error } = useFormAction(async () => {
    setSsoRefusal(null);
    setSession(await api.signIn(email, password));
    navigate(next, { replace: true });
  }, explain);

  return (
    <FormPage title="Sign in to Switchboard" error={error ?? (ssoRefusal ? explainSsoRefusal(ssoRefusal) : undefined)} onSubmit={submit}>
      <TextInput
        label="Email"
        type="email"
        name="email"
        autoComplete="username"
        required
        value={email}
        onChange={(e) => setEmail(e.currentTarget.value)}
      />
      <PasswordInput
        label="Password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.currentTarget.value)}
      />
      <Button type="submit" loading={busy}>
        Sign in
      </Button>
      {sso && (
        <Button component="a" href={ssoStartUrl(next)} variant="default">
          Sign in with single sign-on
        </Button>
      )}
    </FormPage>
  );
}
