// The signed-in frame: a header with the account and sign-out, the navigation (a menu button on a
// phone), and the page.
import { useState } from 'react';
import { NavLink as RouterLink, Outlet, useNavigate } from 'react-router';
import { AppShell, Burger, Button, Group, NavLink, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { api, mayAct } from './api';
import { useSession, useSignedIn } from './session';
import { PAGES } from './pages';

export function Layout() {
  const session = useSignedIn();
  const { setSession } = useSession();
  const navigate = useNavigate();
  const [opened, { toggle, close }] = useDisclosure(false);
  // Mantine's "sm" breakpoint, where the navigation folds away behind the menu button.
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  const [signOutError, setSignOutError] = useState<string>();

  const signOut = async () => {
    try {
      await api.signOut();
      setSession(null);
      navigate('/sign-in', { replace: true });
    } catch (err) {
      setSignOutError((err as Error).message);
    }
  };

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Navigation"
              aria-expanded={opened}
              aria-controls="console-navigation"
            />
            <Text fw={700} size="lg">
              Switchboard
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Text size="sm" visibleFrom="xs" truncate>
              {session.account.name}
            </Text>
            <Button variant="default" size="sm" onClick={signOut}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      {/* Folded away on a phone, its links leave the tab order too. */}
      <AppShell.Navbar id="console-navigation" component="nav" aria-label="Console" p="sm" inert={phone && !opened}>
        {PAGES.filter((p) => p.nav !== false && mayAct(session.user.role, p.role ?? 'viewer')).map(({ path, label }) => (
          // Filled: the active link keeps white on dark blue when hovered (the light variant's hover fails contrast).
          <NavLink key={path} component={RouterLink} to={path} end label={label} variant="filled" onClick={close} />
        ))}
        <NavLink component="a" href="/docs/" label="Documentation" />
        <NavLink component="a" href="/docs/api/" label="API reference" />
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        {signOutError && (
          <Text role="alert" c="red.9" mb="md">
            Could not sign out: {signOutError}
          </Text>
        )}
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
