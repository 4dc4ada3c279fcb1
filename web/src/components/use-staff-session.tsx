/**
 * A staff screen's session: signed in, signed out, and renewed in place when the token expires.
 * The session's token is a {@link SessionToken}: a call refused with 401 opens the
 * {@link ReauthDialog} and continues with the new token, so the screen keeps its state.
 */
import { useCallback, useState } from 'preact/hooks';
import type { VNode } from 'preact';
import { SessionToken } from '../api/session.js';
import type { Role, Session } from '../api/session.js';
import { ReauthDialog } from './reauth-dialog.js';

interface Asking {
  resolve(token: string): void;
  reject(reason: Error): void;
}

export interface StaffSession {
  session: Session | undefined;
  /** Holds `session` with a renewable token. */
  signedIn(session: Session): void;
  signOut(): void;
  /** The re-authentication dialog while a call waits for it, else null. */
  dialog: VNode | null;
}

/** The session of the screen for `role`. */
export function useStaffSession(role: Role): StaffSession {
  const [session, setSession] = useState<Session | undefined>(undefined);
  const [asking, setAsking] = useState<Asking | undefined>(undefined);

  const signedIn = useCallback((next: Session) => {
    const value = typeof next.token === 'string' ? next.token : next.token.value;
    const ask = (): Promise<string> =>
      new Promise<string>((resolve, reject) => setAsking({ resolve, reject }));
    setSession({ ...next, token: new SessionToken(value, ask) });
  }, []);

  const decline = useCallback(() => {
    asking?.reject(new Error('not signed in again'));
    setAsking(undefined);
  }, [asking]);

  const signOut = useCallback(() => {
    decline();
    setSession(undefined);
  }, [decline]);

  const dialog =
    session && asking ? (
      <ReauthDialog
        role={role}
        clientId={session.clientId}
        onSignedIn={(renewed) => {
          asking.resolve(renewed.token);
          setAsking(undefined);
        }}
        onDecline={decline}
      />
    ) : null;

  return { session, signedIn, signOut, dialog };
}
