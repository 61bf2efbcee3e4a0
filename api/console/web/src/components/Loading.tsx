// Loading data for a page: its loading and error states, and a way to load it again.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Group, Loader } from '@mantine/core';

type State<T> = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; data: T };

/** Loads `load()` whenever `deps` change; `reload` loads it again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { loaded: State<T>; reload: () => void } {
  const [loaded, setLoaded] = useState<State<T>>({ state: 'loading' });
  const run = useCallback(load, deps);
  const reload = useCallback(() => {
    let live = true;
    setLoaded({ state: 'loading' });
    run().then(
      (data) => live && setLoaded({ state: 'ready', data }),
      (err: Error) => live && setLoaded({ state: 'failed', message: err.message }),
    );
    return () => {
      live = false;
    };
  }, [run]);
  useEffect(reload, [reload]);
  return { loaded, reload };
}

/** What was loaded, or a loader, or the error with a retry button. */
export function Loaded<T>({ loaded, reload, label, children }: { loaded: State<T>; reload: () => void; label: string; children: (data: T) => ReactNode }) {
  if (loaded.state === 'loading') return <Loader aria-label={`Loading ${label}`} />;
  if (loaded.state === 'failed') {
    return (
      <Alert role="alert" color="red" title={`Could not load ${label}`}>
        <Group justify="space-between">
          {loaded.message}
          <Button variant="default" size="xs" onClick={reload}>
            Try again
          </Button>
        </Group>
      </Alert>
    );
  }
  return <>{children(loaded.data)}</>;
}
