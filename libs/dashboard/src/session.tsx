import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { rpc } from './api';

const KEY_STORAGE = 'engram.apiKey';

interface Session {
  /** The signed-in API key; null when signed out. */
  readonly key: string | null;
  signIn(key: string): void;
  signOut(): void;
}

const SessionContext = createContext<Session | null>(null);

/** Holds the API key for this browser session only (sessionStorage: gone with the tab). */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [key, setKey] = useState<string | null>(() => sessionStorage.getItem(KEY_STORAGE));
  const queries = useQueryClient();
  const signIn = useCallback((next: string) => {
    sessionStorage.setItem(KEY_STORAGE, next);
    setKey(next);
  }, []);
  const signOut = useCallback(() => {
    sessionStorage.removeItem(KEY_STORAGE);
    queries.clear(); // nothing of this tenant stays in memory for the next key
    setKey(null);
  }, [queries]);
  const session = useMemo(() => ({ key, signIn, signOut }), [key, signIn, signOut]);
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The RPC caller of the signed-in key: `call('facts/list', {...})`. */
export function useRpc(): <T>(route: string, body: unknown) => Promise<T> {
  const { key } = useSession();
  return useCallback(
    <T,>(route: string, body: unknown) => {
      if (!key) return Promise.reject(new Error('signed out'));
      return rpc<T>(key, route, body);
    },
    [key],
  );
}
