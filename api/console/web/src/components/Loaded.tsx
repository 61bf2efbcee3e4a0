// Loading a page's data: a loader while it comes, the error with a retry, reloads after changes and by polling.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Center, Group, Loader, Text } from '@mantine/core';

export type State<T> = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; data: T };

export interface Load<T> {
  loaded: State<T>;
  /** The data once loaded (kept while a reload runs), else undefined. */
  data: T | undefined;
  /** Fetches again without clearing what is shown. */
  reload(): Promise<void>;
}

/** Loads `fetch` on mount and whenever `key` changes; a response older than the latest request is dropped. */
export function useLoaded<T>(fetch: () => Promise<T>, key?: unknown): Load<T> {
  const [loaded, setLoaded] = useState<State<T>>({ state: 'loading' });
  // The latest `fetch` (it may close over the page's state), without reloading on every render.
  const latest = useRef(fetch);
  latest.current = fetch;
  const sent = useRef(0);
  const reload = useCallback(async () => {
    const request = ++sent.current;
    try {
      const data = await latest.current();
      if (request === sent.current) setLoaded({ state: 'ready', data });
    } catch (err) {
      if (request === sent.current) setLoaded({ state: 'failed', message: (err as Error).message });
    }
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new `key` is what asks for a reload.
  useEffect(() => {
    setLoaded({ state: 'loading' });
    void reload();
  }, [reload, key]);
  return { loaded, data: loaded.state === 'ready' ? loaded.data : undefined, reload };
}

/** Calls `reload` every `everyMs` while `active`. */
export function usePoll(reload: () => Promise<void>, active: boolean, everyMs = 2000): void {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => void reload(), everyMs);
    return () => clearInterval(timer);
  }, [reload, active, everyMs]);
}

/** Renders `children(data)` once loaded; meanwhile a loader, or the error with a retry. */
export function Loaded<T>({ load, what, children }: { load: Load<T>; what: string; children(data: T): ReactNode }) {
  const { loaded, reload } = load;
  if (loaded.state === 'loading') {
    return (
      <Center p="lg">
        <Loader role="status" aria-label={`Loading ${what}`} />
      </Center>
    );
  }
  if (loaded.state === 'failed') {
    return (
      <Alert role="alert" color="red" title={`Could not load ${what}`} my="md">
        <Group justify="space-between">
          <Text size="sm">{loaded.message}</Text>
          <Button size="xs" variant="default" onClick={() => void reload()}>
            Try again
          </Button>
        </Group>
      </Alert>
    );
  }
  return <>{children(loaded.data)}</>;
}
