// The session store itself, apart from the calls that fill it (session.ts), so that the HTTP
// client can clear it on a 401 without importing the session module (which imports the client).
import { atom } from 'nanostores';
import type { OwnedApp, SessionStatus, SessionUser } from './types';

export interface SessionState {
  status: SessionStatus;
  user?: SessionUser;
  administeredApps?: OwnedApp[];
  /** The public handle of the session (never the cookie secret). */
  id?: string;
}

export const $session = atom<SessionState>({ status: 'unknown' });

/** Forgets the signed-in user (the server session is ended by logout, not here). */
export function clearSession(): void {
  $session.set({ status: 'anonymous' });
}
