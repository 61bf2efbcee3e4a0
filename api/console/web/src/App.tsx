// Routes: the sign-in page, and behind it the layout with one route per page in PAGES.
import { useEffect, useState, type ComponentType } from 'react';
import { Navigate, Route, Routes, useSearchParams } from 'react-router';
import { Alert, Button, Center, Loader, Stack } from '@mantine/core';
import { api, mayAct, signInPath, type Role, type Session } from './api';
import { SessionContext, useSession, useSignedIn } from './session';
import { Layout } from './Layout';
import { PAGES } from './pages';
import { NotFound } from './pages/NotFound';
import { SetPassword } from './pages/SetPassword';
import { SignIn } from './pages/SignIn';

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; session: Session | null };

export function App() {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const load = () => {
    setLoaded({ state: 'loading' });
    api.session().then(
      (session) => setLoaded({ state: 'ready', session }),
      (err: Error) => setLoaded({ state: 'failed', message: err.message }),
    );
  };
  useEffect(load, []);

  if (loaded.state === 'loading') {
    return (
      <Center mih="100vh">
        <Loader aria-label="Loading the console" />
      </Center>
    );
  }
  if (loaded.state === 'failed') {
    return (
      <Center mih="100vh" p="md">
        <Stack>
          <Alert role="alert" color="red" title="The console cannot reach Switchboard">
            {loaded.message}
          </Alert>
          <Button onClick={load}>Try again</Button>
        </Stack>
      </Center>
    );
  }
  const setSession = (session: Session | null) => setLoaded({ state: 'ready', session });
  return (
    <SessionContext.Provider value={{ session: loaded.session, setSession }}>
      <Routes>
        <Route path="/sign-in" element={<SignIn />} />
        <Route element={<SignedIn />}>
          {PAGES.map(({ path, Page, role }) => (
            <Route key={path} path={path} element={<ForRole role={role ?? 'viewer'} Page={Page} />} />
          ))}
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </SessionContext.Provider>
  );
}

/** Pages behind sign-in; the one-time sign-in link lands on `?set-password=1` to choose a password first. */
function SignedIn() {
  const { session } = useSession();
  const [params] = useSearchParams();
  if (!session) return <Navigate to={signInPath()} replace />;
  if (params.get('set-password') === '1') return <SetPassword />;
  return <Layout />;
}

/** A page below the signed-in role is no page at all (its data would be refused anyway). */
function ForRole({ role, Page }: { role: Role; Page: ComponentType }) {
  const session = useSignedIn();
  return mayAct(session.user.role, role) ? <Page /> : <NotFound />;
}
