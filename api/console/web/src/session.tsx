// The signed-in user and account, for every page; null until someone signs in.
import { createContext, useContext } from 'react';
import type { Session } from './api';

export interface SessionState {
  session: Session | null;
  setSession(session: Session | null): void;
}

export const SessionContext = createContext<SessionState>({ session: null, setSession: () => {} });

export function useSession(): SessionState {
  return useContext(SessionContext);
}

/** The session of a page behind sign-in (the layout renders those only once it is known). */
export function useSignedIn(): Session {
  const { session } = useSession();
  if (!session) throw new Error('useSignedIn outside a signed-in page');
  return session;
}
