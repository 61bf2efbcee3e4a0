// Loading data for a page: a loader while it comes, an alert if it fails, and a reload for later.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Alert, Center, Loader } from '@mantine/core';

export interface Load<T> {
  data?: T;
  error?: string;
  reload(): Promise<void>;
}

/** Runs `fetcher` now and whenever `key` changes; `reload` runs it again without clearing what is shown. */
export function useLoad<T>(fetcher: () => Promise<T>, key: string): Load<T> {
  const [state, setState] = useState<{ data?: T; error?: string }>({});
  // `key` names what the fetch depends on, so a new closure each render does not fetch again.
  const run = useCallback(() => fetcher().then((data) => setState({ data }), (err: Error) => setState({ error: err.message })), [key]);
  useEffect(() => {
    setState({});
    void run();
  }, [run]);
  return { ...state, reload: run };
}

/** Polls `reload` every `everyMs` while `active`. */
export function usePoll(reload: () => Promise<void>, active: boolean, everyMs = 2000): void {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => void reload(), everyMs);
    return () => clearInterval(timer);
  }, [reload, active, everyMs]);
}

export function Loaded<T>({ load, what, children }: { load: Load<T>; what: string; children(data: T): ReactNode }) {
  if (load.error) {
    return (
      <Alert role="alert" color="red" title={`Could not load ${what}`}>
        {load.error}
      </Alert>
    );
  }
  if (load.data === undefined) {
    return (
      <Center p="lg">
        <Loader role="status" aria-label={`Loading ${what}`} />
      </Center>
    );
  }
  return <>{children(load.data)}</>;
}
